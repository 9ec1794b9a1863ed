package nvidb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one databind {@link ObjectMapper} of the store, built on first use only. Creating it costs
 * more start-up time than most commands spend on their own work, and the JSON columns every
 * command reads and writes need only the streaming parser ({@link Json}).
 *
 * <p>An interface on purpose: {@link Json} implements it so that {@code Json.MAPPER} still names
 * this field, and initialising a class never initialises the interfaces it implements, so the
 * mapper is built when {@code MAPPER} itself is first read, not when {@code Json} is first used.
 */
public interface MapperHolder {
    ObjectMapper MAPPER = new ObjectMapper();
}
