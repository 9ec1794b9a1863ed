package nvidb.core.view;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.ResolvableSerializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;

/**
 * A document's array of jobs that is read from the database while it is written: each job goes
 * out as {@link JobView} the moment the query hands it over, so a listing of 10,000 jobs is never
 * held whole. It can be written once; {@link #count()} says afterwards how many it held.
 */
@JsonSerialize(using = JobStream.Writer.class)
public final class JobStream {
    private final JobQueries queries;
    private final JobQuery query;
    private final boolean oldestFirst;
    private final Instant now;
    private int count = -1;

    /** The jobs {@code query} lists, newest first or {@code oldestFirst}, as they read at {@code now}. */
    public JobStream(JobQueries queries, JobQuery query, boolean oldestFirst, Instant now) {
        this.queries = queries;
        this.query = query;
        this.oldestFirst = oldestFirst;
        this.now = now;
    }

    /** How many jobs the written array held; -1 before it was written. */
    public int count() {
        return count;
    }

    /** Hands each job to {@code sink} as the database reads it; returns how many there were. */
    public int forEach(java.util.function.Consumer<JobView> sink) {
        count = queries.eachJob(query, oldestFirst, j -> sink.accept(JobView.of(j, now)));
        return count;
    }

    static final class Writer extends StdSerializer<JobStream> implements ResolvableSerializer {
        Writer() {
            super(JobStream.class);
        }

        /**
         * Builds the job view's serialiser with the document's (Jackson resolves this writer when it
         * builds the serialiser of the record holding the stream), not at the first job written: a
         * document's serialiser prepared ahead (the CLI's {@code --json} warm-up) is then whole.
         */
        @Override
        public void resolve(SerializerProvider provider) throws JsonMappingException {
            provider.findTypedValueSerializer(JobView.class, true, null);
        }

        @Override
        public void serialize(JobStream jobs, JsonGenerator g, SerializerProvider provider) throws IOException {
            g.writeStartArray();
            try {
                jobs.forEach(view -> {
                    try {
                        provider.defaultSerializeValue(view, g);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            g.writeEndArray();
        }
    }
}
