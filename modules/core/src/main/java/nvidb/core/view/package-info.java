/**
 * The JSON documents, as typed records: what every {@code --json} document (and a front end
 * beside the CLI, such as an HTTP API) hands to the one writer, {@link nvidb.core.api.Json}.
 * A record's components are its keys, written as {@code snake_case} in declared order; a
 * component marked {@code @JsonInclude(NON_NULL)} is left out while it is null. Built from the
 * facade's values ({@code nvidb.core.api}) alone.
 */
package nvidb.core.view;
