package nvidb.cli.commands;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The converter of word-valued sizes, positions and ids that a command parses itself: an empty or
 * blank value (an unset shell variable, {@code --vram "$VRAM"}) is a usage error naming the
 * option, never a silent default. Number-valued options get the same from picocli's own
 * converters ({@code '' is not an int}).
 */
public final class NonBlank implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
        if (value.isBlank()) {
            throw new TypeConversionException("'" + value + "' is empty; give a value");
        }
        return value;
    }
}
