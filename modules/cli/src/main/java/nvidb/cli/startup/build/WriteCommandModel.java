package nvidb.cli.startup.build;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import nvidb.cli.Nvidb;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.cli.startup.CommandLines;
import picocli.CommandLine;

/**
 * Build time only (modules/cli/pom.xml runs it after compiling): picocli reads every command's
 * annotations once, here, and the model of what it read goes into the classes folder, so that a
 * command line at run time is built without reading annotations (see {@link CommandLines}).
 */
public final class WriteCommandModel {
    private WriteCommandModel() {
    }

    /**
     * @param args the folder to write the models to (one file a class), and the classes folder,
     *             where each package's generated {@link FieldAccess} goes
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: WriteCommandModel MODEL_FOLDER CLASSES_FOLDER");
        }
        // The whole tree (no branch named), from the annotations; the context is never opened.
        CommandLine root = Nvidb.tree(new CliContext(Map.of(), Output.system()), new String[0],
                CommandLines.reflective());
        List<String> skipped = ModelWriter.write(root, Path.of(args[0]));
        FieldAccessWriter.write(Path.of(args[0]), Path.of(args[1]), WriteCommandModel.class.getClassLoader());
        Output out = Output.system();
        for (String s : skipped) {
            out.line("command model: left out, built from its annotations at run time: " + s);
        }
    }
}
