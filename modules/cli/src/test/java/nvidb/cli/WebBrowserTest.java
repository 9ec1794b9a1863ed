package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import nvidb.testkit.HostTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * {@code nvidb queue web} in a real headless Chromium (Debian's chromium and chromedriver, which
 * .ci/run installs; nothing is downloaded): the overview with a node card and its GPU bars, a job
 * submitted by another process appearing without a reload, its log tail growing, cancelling it
 * from the page with the token, a history plot with points. Screenshots land in
 * target/web-screenshots.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebBrowserTest {
    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File DRIVER = new File("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "web-screenshots");

    @TempDir
    Path tmp;
    WebFixture queue;
    Process server;
    WebDriver browser;

    @BeforeEach
    void setUp() throws Exception {
        Assumptions.assumeTrue(CHROMIUM.canExecute(), HostTools.missing(CHROMIUM.toString(), "chromium"));
        Assumptions.assumeTrue(DRIVER.canExecute(), HostTools.missing(DRIVER.toString(), "chromium-driver"));
        queue = new WebFixture(tmp);
        queue.cli.json("queue", "tick");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + tmp.resolve("chromium-profile"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER).usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void tearDown() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.destroy();
        }
        if (queue != null) {
            queue.close();
        }
    }

    @Test
    void theQueueLivesInTheBrowser() throws Exception {
        queue.queueSettings("  users:\n    default:\n      max_gpus: 4\n"); // a limit: the overview lists the users
        server = queue.cli.start("queue", "web", "--listen", "127.0.0.1:0", "--json");
        java.util.concurrent.CompletableFuture<String> line = new java.util.concurrent.CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                line.complete(new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
                        .readLine());
            } catch (java.io.IOException e) {
                line.completeExceptionally(e);
            }
        });
        String first;
        try {
            first = line.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            server.destroy();
            throw new AssertionError("nvidb queue web printed no link within 60 s: "
                    + new String(server.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        assertTrue(first != null, "nvidb queue web ended without printing its link");
        JsonNode started = Cli.JSON.readTree(first);
        String url = started.path("url_with_token").asText();
        assertTrue(url.contains("#token="), first);
        // The page redraws on every change: elements are found again each time, never kept.
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(10));
        wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);

        browser.get(url);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".node-card[data-node=alpha]")));
        assertEquals(2, (int) wait.until(d -> d.findElement(By.cssSelector(".node-card[data-node=alpha]"))
                .findElements(By.cssSelector(".gpu-bar")).size()));
        String external = wait.until(d -> d.findElement(By.cssSelector(
                ".node-card[data-node=alpha] [data-gpu='alpha:0'] .seg-external")).getCssValue("width"));
        assertTrue(Double.parseDouble(external.replace("px", "")) > 0, "GPU 0 shows its external memory: " + external);
        wait.until(ExpectedConditions.textToBe(By.id("live"), "live"));
        assertEquals("#/", new java.net.URI(browser.getCurrentUrl()).getRawFragment() == null ? ""
                : "#" + new java.net.URI(browser.getCurrentUrl()).getRawFragment(), "the token leaves the address bar");
        shot("overview");

        // Submitted by another process; a name that would be markup if the page wrote markup.
        String name = "<img src=x onerror=window.pwned=1>\"onerror=";
        Process submit = queue.cli.start("job", "submit", "--json", "--gpus", "1", "--vram", "2G", "--name", name, "--",
                "for i in $(seq 1 400); do echo line $i; sleep 0.2; done");
        assertTrue(submit.waitFor(60, TimeUnit.SECONDS));
        long submitted = System.nanoTime();
        long id = Cli.JSON.readTree(submit.getInputStream().readAllBytes()).path("job").path("id").asLong();
        By row = By.cssSelector("tr.job-row[data-job='" + id + "']");
        new WebDriverWait(browser, Duration.ofSeconds(2)).until(ExpectedConditions.presenceOfElementLocated(row));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - submitted);
        System.out.println("web: the submitted job appeared in the browser " + ms + " ms after its submit ended");
        assertEquals(name, wait.until(d -> d.findElement(row).findElement(By.cssSelector(".job-name")).getText()));
        assertNull(((JavascriptExecutor) browser).executeScript("return window.pwned"), "the name stayed text");
        String me = nvidb.core.api.Caller.osAccount(); // the job's user: the users table lists them with their limit
        String users = wait.until(d -> d.findElement(By.cssSelector("#users tr[data-user='" + me + "']")).getText());
        assertTrue(users.contains("gpus≤4"), "the users table shows each user's limits: " + users);

        wait.until(d -> {
            d.findElement(row).click();
            return true;
        });
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("job-state"), "running"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("log-stdout"), "line 2"));
        int before = wait.until(d -> d.findElement(By.id("log-stdout")).getText().length());
        wait.until(d -> d.findElement(By.id("log-stdout")).getText().length() > before);
        assertEquals(name, wait.until(d -> d.findElement(By.cssSelector("h2 .job-name")).getText()));
        String memory = browser.findElement(By.id("job-memory")).getText();
        assertTrue(memory.startsWith("reserved 2.0G (explicit) · peak "), memory);
        shot("job");

        wait.until(d -> {
            d.findElement(By.id("cancel")).click();
            return true;
        });
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("job-state"), "cancelled"));
        assertEquals("cancelled", queue.cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText());

        browser.navigate().to(url.substring(0, url.indexOf('#')) + "#/history");
        boolean drawn = wait.until(d -> d.findElement(By.cssSelector("svg.plot[data-points]:not([data-points='0'])"
                + " circle.point")).isDisplayed());
        assertTrue(drawn, "a plot has drawn points");
        // Usage by user over the last hour: the cancelled job's account, with its GPU-hours, and the total.
        String account = queue.cli.json("job", "show", String.valueOf(id), "--no-tick").path("user").asText();
        String usage = wait.until(d -> d.findElement(By.cssSelector("#usage tbody")).getText());
        assertTrue(usage.startsWith(account + " 1 "), usage);
        assertTrue(usage.contains("\ntotal 1 "), usage);
        shot("history");
    }

    private void shot(String name) throws Exception {
        Files.createDirectories(SHOTS);
        Files.write(SHOTS.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}
