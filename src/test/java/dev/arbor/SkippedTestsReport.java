package dev.arbor;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Names every test that did not run, and why, at the end of the test run: Surefire's summary only counts them, and a
 * test skipped for want of something outside the repository (the upstream sample sessions, a PostgreSQL, a browser)
 * must never pass unseen (README.md#tests). Registered for the JUnit Platform launcher in
 * {@code META-INF/services}; a skipped class or nested class is named once, not each of its tests.
 */
public final class SkippedTestsReport implements TestExecutionListener {

	private final List<String> skipped = new ArrayList<>();

	private final PrintStream out;

	public SkippedTestsReport() {
		this(System.out);
	}

	SkippedTestsReport(PrintStream out) {
		this.out = out;
	}

	@Override
	public void executionSkipped(TestIdentifier test, String reason) {
		record(test, reason);
	}

	@Override
	public void executionFinished(TestIdentifier test, TestExecutionResult result) {
		if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
			record(test, result.getThrowable()
				.map(Throwable::getMessage)
				.map((message) -> message.replaceFirst("^Assumption failed: ", ""))
				.orElse("aborted"));
		}
	}

	@Override
	public void testPlanExecutionFinished(TestPlan plan) {
		if (this.skipped.isEmpty()) {
			return;
		}
		synchronized (this.out) {
			this.out.println();
			this.out.println("Skipped tests (" + this.skipped.size() + "):");
			this.skipped.forEach((line) -> this.out.println("  " + line));
			this.out.println();
		}
		this.skipped.clear();
	}

	private synchronized void record(TestIdentifier test, String reason) {
		this.skipped.add(name(test) + ": " + Optional.ofNullable(reason).map(String::strip).orElse("no reason given"));
	}

	private static String name(TestIdentifier test) {
		return test.getSource().map((source) -> {
			if (source instanceof MethodSource method) {
				return method.getClassName() + "." + method.getMethodName() + suffix(test);
			}
			if (source instanceof ClassSource type) {
				return type.getClassName();
			}
			return test.getDisplayName();
		}).orElse(test.getDisplayName());
	}

	/** A parameterized or repeated test's invocation is named by its display name too. */
	private static String suffix(TestIdentifier test) {
		return test.getType().isContainer() || !test.getLegacyReportingName().contains("[") ? ""
				: " " + test.getDisplayName();
	}

}
