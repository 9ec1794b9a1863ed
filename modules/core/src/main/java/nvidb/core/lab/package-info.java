/**
 * A lab of several people on one queue (issue 34): fair share (who goes next among the jobs that
 * could start) and each user's limits, as rules the scheduler's passes and the status views share.
 */
package nvidb.core.lab;
