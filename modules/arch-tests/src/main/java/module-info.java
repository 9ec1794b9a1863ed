/**
 * Holds nothing: this module is test code only (ArchUnit rules over every other module). The
 * descriptor exists so that every module of the build has one.
 */
module nvidb.archtests {}
