# The last lines of a job's stdout or stderr; a missing file reads as empty.
# nvidb puts these values ahead of this text (NodeScripts.tail):
: "${nvidb_file?}" "${nvidb_lines?}"

tail -n "$nvidb_lines" "$nvidb_file" 2>/dev/null || true
