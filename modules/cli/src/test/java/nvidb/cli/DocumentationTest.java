package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is a short landing page; everything else is a guide in {@code docs/}, each linked from
 * it. Every relative link in the README and the guides points to a file (or folder) that exists,
 * and a link with a {@code #fragment} into a Markdown file names one of its headings.
 */
class DocumentationTest {
    static final Path ROOT = Path.of("../..");
    static final Path README = ROOT.resolve("README.md");
    static final Path DOCS = ROOT.resolve("docs");
    private static final int MAX_README_LINES = 260;
    /** {@code [text](target)} or {@code ![alt](target)}, the target up to a space or the closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    /** The README, then every guide in docs/ in name order: the text every documentation test reads. */
    static List<Path> markdown() {
        List<Path> out = new ArrayList<>();
        out.add(README);
        try (Stream<Path> s = Files.list(DOCS)) {
            s.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(out::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @Test
    void theReadmeStaysALandingPage() throws IOException {
        List<String> lines = Files.readAllLines(README);
        assertTrue(lines.size() <= MAX_README_LINES,
                "README.md has " + lines.size() + " lines; at most " + MAX_README_LINES + ": move detail to a guide in docs/");
        String readme = Files.readString(README);
        // CI and the set-up checks run these two lines of "Build from source" as they are written.
        assertTrue(readme.contains("\n./nvidb job submit --wait --gpus 0 --name hello -- echo hello from nvidb   # the main job\n"));
        assertTrue(readme.contains("\n./run-tests                                                                # every test\n"));
    }

    @Test
    void everyGuideIsLinkedFromTheReadmeAndOpensWithASummary() throws IOException {
        List<Path> guides = markdown().subList(1, markdown().size());
        assertTrue(guides.size() >= 14, "found only " + guides.size() + " guides in docs/");
        Set<Path> linked = new HashSet<>();
        for (String target : links(Files.readString(README))) {
            linked.add(ROOT.resolve(target.replaceFirst("#.*", "")).normalize());
        }
        List<String> problems = new ArrayList<>();
        for (Path guide : guides) {
            if (!linked.contains(guide.normalize())) {
                problems.add("README.md does not link docs/" + guide.getFileName());
            }
            List<String> lines = Files.readAllLines(guide);
            if (lines.isEmpty() || !lines.get(0).startsWith("# ")) {
                problems.add(guide.getFileName() + " does not start with a # title");
                continue;
            }
            String first = lines.stream().skip(1).filter(l -> !l.isBlank()).findFirst().orElse("");
            if (first.startsWith("#") || first.startsWith("```") || first.startsWith("|") || first.startsWith("- ")) {
                problems.add(guide.getFileName() + " does not open with a summary paragraph: " + first);
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    @Test
    void everyRelativeLinkPointsToSomethingThatExists() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path doc : markdown()) {
            for (String target : links(Files.readString(doc))) {
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue; // http:, https:, mailto:
                }
                checked++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String fragment = hash < 0 ? null : target.substring(hash + 1);
                Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                if (!resolved.toAbsolutePath().normalize().startsWith(ROOT.toAbsolutePath().normalize())) {
                    broken.add(doc.getFileName() + ": " + target + " leaves the repository");
                    continue;
                }
                if (!Files.exists(resolved)) {
                    broken.add(doc.getFileName() + ": " + target + " (no " + resolved + ")");
                } else if (fragment != null && resolved.toString().endsWith(".md")
                        && !anchors(Files.readString(resolved)).contains(fragment)) {
                    broken.add(doc.getFileName() + ": " + target + " (" + resolved.getFileName() + " has no heading #" + fragment + ")");
                }
            }
        }
        if (!broken.isEmpty()) {
            fail(broken.size() + " broken link(s):\n" + String.join("\n", broken));
        }
        assertTrue(checked > 30, "found only " + checked + " relative links");
    }

    @Test
    void theCheckerSeesABrokenLinkAndAMissingHeading() {
        assertEquals(List.of("docs/nope.md", "a.md#x"), links("see [here](docs/nope.md) and [there](a.md#x \"t\") or <b>"));
        Set<String> a = anchors("# Title\n## The web server (`bench/web.sh`)\n```\n# not a heading\n```\n## Title\n");
        assertTrue(a.contains("the-web-server-benchwebsh"), a.toString());
        assertTrue(a.contains("title") && a.contains("title-1"), a.toString());
        assertFalse(a.contains("not-a-heading"), a.toString());
        assertFalse(Files.exists(DOCS.resolve("nope.md")));
    }

    /** The link targets of a Markdown text, outside fenced code blocks. */
    static List<String> links(String markdown) {
        List<String> out = new ArrayList<>();
        boolean code = false;
        for (String line : markdown.split("\n")) {
            if (line.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            if (code) {
                continue;
            }
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    static Set<String> anchors(String markdown) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean code = false;
        for (String line : markdown.split("\n")) {
            if (line.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (code || !m.matches()) {
                continue;
            }
            String slug = m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            out.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return out;
    }
}
