package dev.arbor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * Upstream pi, run by Node, for the tests that compare Arbor with pi's own code rather than with a reading of it:
 * the {@code @mariozechner/pi-coding-agent} that {@code bench/agent/package.json} pins, installed with {@code npm
 * install} into the folder that {@code ARBOR_TEST_PI} names ({@code scripts/ci-pi.sh} does, for {@code .ci/run}).
 * Without Node or that folder the tests are skipped, saying so, unless {@code ARBOR_REQUIRE_PI=true} (set by
 * {@code .ci/run}), which fails them instead. pi only ever reads copies: its {@code SessionManager.open} may rewrite
 * a file it migrates.
 */
public final class UpstreamPi {

	public static final String VARIABLE = "ARBOR_TEST_PI";

	public static final String REQUIRED_VARIABLE = "ARBOR_REQUIRE_PI";

	/** The version the comparisons were written against (docs/SESSION-FORMAT.md cites its sources). */
	public static final String VERSION = "0.73.1";

	private static final String PACKAGE = "node_modules/@mariozechner/pi-coding-agent/package.json";

	private UpstreamPi() {
	}

	/** The folder pi is installed in; skips the calling test when there is none (fails it where required). */
	public static Path installed() {
		String unavailable = unavailable();
		if (unavailable != null) {
			if (Boolean.parseBoolean(System.getenv(REQUIRED_VARIABLE))) {
				throw new IllegalStateException(REQUIRED_VARIABLE + "=true, but: " + unavailable);
			}
			Assumptions.abort(unavailable);
		}
		return Path.of(System.getenv(VARIABLE));
	}

	/**
	 * Runs a script of {@code src/test/resources/pi} with Node: the folder pi is installed in first, then the
	 * arguments. Its home is a scratch folder, so that pi reads no settings of the machine's user.
	 *
	 * @return what it printed
	 */
	public static String run(String script, Path home, String... arguments) {
		Path installed = installed();
		List<String> command = new ArrayList<>(List.of("node", Path.of("src/test/resources/pi", script).toString(),
				installed.toString()));
		command.addAll(List.of(arguments));
		try {
			Path errors = Files.createTempFile("arbor-pi-", ".log");
			ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
			builder.environment().put("HOME", home.toString());
			builder.environment().put("PI_CODING_AGENT_DIR", home.resolve(".pi/agent").toString());
			Process node = builder.start();
			node.getOutputStream().close();
			String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!node.waitFor(60, TimeUnit.SECONDS)) {
				node.destroyForcibly();
				throw new IllegalStateException("node " + script + " did not finish within 60 s");
			}
			if (node.exitValue() != 0) {
				throw new IllegalStateException("node " + script + " exited with " + node.exitValue() + ": "
						+ Files.readString(errors, StandardCharsets.UTF_8));
			}
			Files.delete(errors);
			return out;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static @Nullable String unavailable() {
		String folder = System.getenv(VARIABLE);
		if (folder == null || folder.isBlank()) {
			return VARIABLE + " is not set: it names a folder where `npm install @mariozechner/pi-coding-agent@"
					+ VERSION + "` ran (scripts/ci-pi.sh makes one)";
		}
		Path installed = Path.of(folder).resolve(PACKAGE);
		if (!Files.isRegularFile(installed)) {
			return "pi is not installed in " + folder + " (no " + PACKAGE + "): run scripts/ci-pi.sh";
		}
		try {
			String manifest = Files.readString(installed, StandardCharsets.UTF_8);
			if (!manifest.contains("\"version\": \"" + VERSION + "\"")) {
				return "the pi in " + folder + " is not version " + VERSION;
			}
			Process node = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
			node.getInputStream().readAllBytes();
			if (!node.waitFor(30, TimeUnit.SECONDS) || node.exitValue() != 0) {
				return "node --version failed: Node is needed to run pi";
			}
		}
		catch (IOException ex) {
			return "Node is not installed (" + ex.getMessage() + "): it is needed to run pi";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted while looking for Node";
		}
		return null;
	}

}
