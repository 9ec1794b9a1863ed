package nvidb.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A fake {@code nvidia-smi}: an executable POSIX sh script (sh, awk, coreutils; no python) that
 * answers exactly the two queries nvidb's probes ask, in the real tool's CSV form
 * ({@code , } separators, no header, no units), from a state folder it re-reads on every call.
 * Tests change the GPUs between calls through this object; every change is written at once
 * (atomically, so a probe running concurrently sees the old or the new state, never half).
 *
 * <pre>{@code
 * FakeNvidiaSmi smi = FakeNvidiaSmi.install("gpu1", tmp.resolve("bin"), tmp.resolve("smi"))
 *         .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564)
 *         .gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564).baseUsed(1, 3)
 *         .foreignProcess(48230, 0, 4000, "python");
 * String job = smi.allocateSnippet(0, 6000) + "; exec sleep 60";   // held while the job lives
 * env.put("PATH", smi.pathWithFake());
 * }</pre>
 *
 * <p>What a call reports:
 * <ul>
 *   <li>{@code --query-gpu=} any of index, uuid, name, memory.total, memory.used, memory.free,
 *       utilization.gpu, utilization.memory, temperature.gpu, power.draw (watts, {@code [N/A]} until
 *       {@link #power} sets it); another field prints
 *       {@code Field "x" is not a valid field to query.} and exits 2.</li>
 *   <li>{@code --query-compute-apps=} any of pid, gpu_uuid, used_memory (or used_gpu_memory),
 *       process_name: the foreign processes (alive or not: they stand for other users' work),
 *       then the live allocations, GPU by GPU.</li>
 *   <li>memory.used = base used + foreign processes + live allocations on that GPU (not capped
 *       at memory.total: a test that over-commits sees it).</li>
 *   <li>{@code --format=} must be {@code csv,noheader,nounits}; anything else exits 2 (the fake
 *       refuses rather than print a form it does not reproduce). No GPUs: {@code No devices were
 *       found}, exit 6, as the real tool.</li>
 * </ul>
 * A live allocation is one whose pid passes {@code kill -0} and is not a zombie; dead ones are
 * forgotten (their files removed), so the memory disappears when the process dies.
 */
public final class FakeNvidiaSmi {

    /** How the fake behaves. */
    public enum Mode {
        /** Per-process attribution, as on a Linux host. */
        NORMAL,
        /** WSL form A: memory.used is real, the compute-apps query prints nothing. */
        BLIND,
        /** WSL form B: processes are listed with used_memory {@code [N/A]}. */
        BLIND_NA,
        /** No driver: prints {@link #FAILURE_MESSAGE} and exits 9. */
        FAILING,
        /** The script is deleted, so the command is not found (exit 127 from the shell). */
        MISSING
    }

    /** What the real tool prints when the driver is not loaded (exit 9). */
    public static final String FAILURE_MESSAGE = "NVIDIA-SMI has failed because it couldn't communicate with the"
            + " NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.";

    /** Name given to an allocation's process when none is said. */
    public static final String DEFAULT_PROCESS_NAME = "python";

    private static final String NA = "[N/A]";

    private final String node;
    private final Path binDir;
    private final Path stateDir;
    private final TreeMap<Integer, Gpu> gpus = new TreeMap<>();
    private final List<String> foreign = new ArrayList<>();
    private Mode mode = Mode.NORMAL;

    private static final class Gpu {
        String uuid;
        String name;
        long totalMib;
        long baseUsedMib;
        Integer util = 0;
        Integer memUtil = 0;
        Integer temperature = 30;
        /** power.draw as printed: watts, or a word of the driver's such as {@code [Not Supported]}. */
        String power = NA;
    }

    private FakeNvidiaSmi(String node, Path binDir, Path stateDir) {
        this.node = node;
        this.binDir = binDir;
        this.stateDir = stateDir;
    }

    /** {@link #install(String, Path, Path)} for a node called {@code node}. */
    public static FakeNvidiaSmi install(Path binDir, Path stateDir) {
        return install("node", binDir, stateDir);
    }

    /**
     * Writes {@code binDir/nvidia-smi} and an empty state (no GPUs, mode NORMAL, no calls) into
     * {@code stateDir}. Both folders are created if needed; {@code node} seeds the GPU UUIDs.
     */
    public static FakeNvidiaSmi install(String node, Path binDir, Path stateDir) {
        Objects.requireNonNull(node, "node");
        FakeNvidiaSmi fake = new FakeNvidiaSmi(node, binDir.toAbsolutePath(), stateDir.toAbsolutePath());
        try {
            Files.createDirectories(fake.binDir);
            Files.createDirectories(fake.stateDir.resolve("alloc"));
            Files.writeString(fake.stateDir.resolve("calls"), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        fake.writeScript();
        fake.writeState();
        return fake;
    }

    // ---- GPUs ----

    /**
     * Adds (or replaces) GPU {@code index}: nothing used, utilisation 0 %, 30 °C, UUID
     * {@link #uuid(String, int)}.
     */
    public FakeNvidiaSmi gpu(int index, String name, long totalMib) {
        if (index < 0) {
            throw new IllegalArgumentException("GPU index must be >= 0: " + index);
        }
        Gpu g = new Gpu();
        g.uuid = uuid(node, index);
        g.name = cell(name, "name");
        g.totalMib = totalMib;
        gpus.put(index, g);
        return writeState();
    }

    public FakeNvidiaSmi removeGpu(int index) {
        gpus.remove(index);
        return writeState();
    }

    /** MiB used on the GPU by nothing the compute-apps query shows (driver, display, contexts). */
    public FakeNvidiaSmi baseUsed(int gpu, long mib) {
        gpu(gpu).baseUsedMib = mib;
        return writeState();
    }

    /** utilization.gpu in percent; null reads {@code [N/A]}. */
    public FakeNvidiaSmi utilization(int gpu, Integer percent) {
        gpu(gpu).util = percent;
        return writeState();
    }

    /** utilization.memory in percent; null reads {@code [N/A]}. */
    public FakeNvidiaSmi memoryUtilization(int gpu, Integer percent) {
        gpu(gpu).memUtil = percent;
        return writeState();
    }

    /** temperature.gpu in °C; null reads {@code [N/A]}. */
    public FakeNvidiaSmi temperature(int gpu, Integer celsius) {
        gpu(gpu).temperature = celsius;
        return writeState();
    }

    /** power.draw in watts (printed with two decimals, as the real tool does); null reads {@code [N/A]}. */
    public FakeNvidiaSmi power(int gpu, Double watts) {
        gpu(gpu).power = watts == null ? NA : String.format(java.util.Locale.ROOT, "%.2f", watts);
        return writeState();
    }

    /** power.draw printed as {@code word} (such as {@code [Not Supported]}, what some boards answer). */
    public FakeNvidiaSmi powerWord(int gpu, String word) {
        gpu(gpu).power = cell(word, "power");
        return writeState();
    }

    /** Overrides the GPU's generated UUID (for instance to reproduce a documented output). */
    public FakeNvidiaSmi uuid(int gpu, String uuid) {
        gpu(gpu).uuid = cell(uuid, "uuid");
        return writeState();
    }

    /** The GPU's UUID as the fake reports it. */
    public String uuid(int gpu) {
        return gpu(gpu).uuid;
    }

    /** The stable UUID given to GPU {@code index} of {@code node}: {@code GPU-} and a hex UUID. */
    public static String uuid(String node, int index) {
        return "GPU-" + UUID.nameUUIDFromBytes((node + "/" + index).getBytes(StandardCharsets.UTF_8));
    }

    // ---- processes ----

    /**
     * A process of someone else: listed by the compute-apps query and counted in memory.used
     * whether or not {@code pid} is alive.
     */
    public FakeNvidiaSmi foreignProcess(long pid, int gpu, long mib, String name) {
        gpu(gpu);
        foreign.add(pid + "|" + gpu + "|" + mib + "|" + cell(name, "process name"));
        return writeState();
    }

    public FakeNvidiaSmi clearForeign() {
        foreign.clear();
        return writeState();
    }

    /** {@code pid} holds {@code mib} on {@code gpu} for as long as it lives. */
    public FakeNvidiaSmi allocate(long pid, int gpu, long mib) {
        return allocate(pid, gpu, mib, DEFAULT_PROCESS_NAME);
    }

    /** {@code pid} holds {@code mib} on {@code gpu} for as long as it lives, shown as {@code name}. */
    public FakeNvidiaSmi allocate(long pid, int gpu, long mib, String name) {
        String line = gpu + " " + mib + " " + cell(name, "process name") + "\n";
        try {
            Files.writeString(stateDir.resolve("alloc").resolve(Long.toString(pid)), line,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * A POSIX sh command that registers the shell running it ({@code $$}) as holding {@code mib}
     * on {@code gpu}, for as long as that shell (or what it {@code exec}s) lives. Several
     * snippets in one shell add up (a multi-GPU job runs one per GPU).
     */
    public String allocateSnippet(int gpu, long mib) {
        return "echo " + quote(gpu + " " + mib + " " + DEFAULT_PROCESS_NAME) + " >>"
                + quote(stateDir.resolve("alloc") + "/") + "$$";
    }

    /** Forgets every allocation, live or not. */
    public FakeNvidiaSmi clearAllocations() {
        try (Stream<Path> files = Files.list(stateDir.resolve("alloc"))) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    // ---- modes ----

    /** Switches the mode; leaving {@link Mode#MISSING} puts the script back. */
    public FakeNvidiaSmi mode(Mode newMode) {
        mode = Objects.requireNonNull(newMode, "mode");
        if (newMode == Mode.MISSING) {
            try {
                Files.deleteIfExists(command());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else if (!Files.exists(command())) {
            writeScript();
        }
        return writeState();
    }

    public Mode mode() {
        return mode;
    }

    // ---- where it is, what it was asked ----

    /** The fake's path, {@code binDir/nvidia-smi} (absent in mode MISSING). */
    public Path command() {
        return binDir.resolve("nvidia-smi");
    }

    public Path binDir() {
        return binDir;
    }

    public Path stateDir() {
        return stateDir;
    }

    /** A PATH with the fake's folder first, then this JVM's PATH. */
    public String pathWithFake() {
        String path = System.getenv("PATH");
        return binDir + (path == null || path.isEmpty() ? "" : File.pathSeparator + path);
    }

    /** How many times the fake has run (MISSING calls are not counted: nothing ran). */
    public int calls() {
        return callArguments().size();
    }

    /** The arguments of each call so far, one string per call, oldest first. */
    public List<String> callArguments() {
        try {
            return Files.readAllLines(stateDir.resolve("calls"));
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public FakeNvidiaSmi resetCalls() {
        try {
            Files.writeString(stateDir.resolve("calls"), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    // ---- files ----

    private Gpu gpu(int index) {
        Gpu g = gpus.get(index);
        if (g == null) {
            throw new IllegalArgumentException("no GPU " + index + " on the fake (add it with gpu(index, name, mib))");
        }
        return g;
    }

    private FakeNvidiaSmi writeState() {
        StringBuilder table = new StringBuilder();
        gpus.forEach((index, g) -> table.append(index).append('|').append(g.uuid).append('|').append(g.name)
                .append('|').append(g.totalMib).append('|').append(g.baseUsedMib)
                .append('|').append(orNa(g.util)).append('|').append(orNa(g.memUtil))
                .append('|').append(orNa(g.temperature)).append('|').append(g.power).append('\n'));
        StringBuilder procs = new StringBuilder();
        foreign.forEach(line -> procs.append(line).append('\n'));
        replace(stateDir.resolve("gpus"), table.toString());
        replace(stateDir.resolve("foreign"), procs.toString());
        replace(stateDir.resolve("mode"), mode.name() + "\n");
        return this;
    }

    private void writeScript() {
        String script;
        try (InputStream in = FakeNvidiaSmi.class.getResourceAsStream("fake-nvidia-smi.sh")) {
            if (in == null) {
                throw new IllegalStateException("fake-nvidia-smi.sh missing from the testkit");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        replace(command(), script.replace("@STATE@", quote(stateDir.toString())));
        try {
            Files.setPosixFilePermissions(command(), PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes next to the target and renames over it, so a concurrent reader never sees half. */
    private static void replace(Path file, String text) {
        try {
            Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String orNa(Integer value) {
        return value == null ? NA : value.toString();
    }

    private static String cell(String text, String what) {
        Objects.requireNonNull(text, what);
        if (text.isBlank() || text.contains("|") || text.contains("\n") || text.contains("\r")) {
            throw new IllegalArgumentException(what + " must be non-blank, one line, without '|': " + text);
        }
        return text;
    }

    /** The text as one single-quoted POSIX shell word. */
    static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
