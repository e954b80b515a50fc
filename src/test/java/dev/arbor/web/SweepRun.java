package dev.arbor.web;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import dev.arbor.web.edge.ProblemType;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Sends sweep cases one after another and judges each answer by the rules every request must meet: no 5xx; every
 * error a problem document whose {@code status} is the answer's; no file under the root created, removed or changed
 * unless the answer is 2xx; what must be refused refused; an {@code ETag} that is an entity tag. Violations are
 * collected, not thrown, so that one run reports them all.
 */
final class SweepRun {

	/** RFC 9110, section 8.8.3: {@code [ W/ ] DQUOTE *etagc DQUOTE}, etagc = %x21 / %x23-7E / obs-text. */
	private static final Pattern ENTITY_TAG = Pattern.compile("(W/)?\"[\\x21\\x23-\\x7E\\x80-\\xFF]*\"");

	private final int port;

	private final Path root;

	private final SweepWorld world;

	private final List<Violation> violations = new ArrayList<>();

	private final Map<String, Integer> requestsByOperation = new LinkedHashMap<>();

	private final Map<Path, FileTreeSnapshot.Digest> digests = new HashMap<>();

	private FileTreeSnapshot snapshot;

	private int worldChanges;

	SweepRun(int port, Path root, SweepWorld world) {
		this.port = port;
		this.root = root;
		this.world = world;
		this.snapshot = FileTreeSnapshot.of(root, this.digests);
		this.worldChanges = world.changes();
	}

	/** Sends the case and judges the answer, which it returns for further checks. */
	SweepWire.Answer check(SweepCase sweepCase) {
		SweepRequest request = sweepCase.request(this.world);
		if (this.world.changes() != this.worldChanges) {
			this.snapshot = FileTreeSnapshot.of(this.root, this.digests);
			this.worldChanges = this.world.changes();
		}
		SweepWire.Answer answer = SweepWire.send(this.port, request);
		this.requestsByOperation.merge(sweepCase.operation().id(), 1, Integer::sum);
		for (String finding : judge(sweepCase, request, answer)) {
			this.violations.add(new Violation(sweepCase, request, answer, finding));
		}
		if (answer.successful()) {
			if (!List.of("GET", "HEAD", "OPTIONS").contains(request.method())) {
				this.world.refresh(request.method().equals("DELETE"));
			}
			this.snapshot = FileTreeSnapshot.of(this.root, this.digests);
			this.worldChanges = this.world.changes();
		}
		return answer;
	}

	private List<String> judge(SweepCase sweepCase, SweepRequest request, SweepWire.Answer answer) {
		List<String> findings = new ArrayList<>();
		if (answer.failure() != null) {
			// Jetty answers a head it will not read and closes while the client still sends: the answer may be lost.
			if (!sweepCase.mayGoUnanswered() && !SweepWire.headTooLong(request)) {
				findings.add("no answer");
			}
		}
		else {
			JsonNode problem = answer.json();
			String type = (problem != null) ? problem.path("type").asString("") : "";
			boolean notImplemented = answer.status() == 501 && sweepCase.expect() == SweepCase.Expect.UNSUPPORTED
					&& !type.equals(ProblemType.INTERNAL_ERROR.type().toString());
			if (answer.status() >= 500 && !notImplemented) {
				findings.add("server error " + outcome(answer));
			}
			if (answer.status() >= 300 && answer.status() != 304 && !request.method().equals("HEAD")) {
				String problemFinding = problemFinding(answer, problem);
				if (problemFinding != null) {
					findings.add(problemFinding + " (" + answer.status() + ")");
				}
			}
			if (sweepCase.expect() != SweepCase.Expect.ANY && answer.status() < 400) {
				findings.add("accepted what must be refused: " + answer.status());
			}
			for (String tag : answer.headers().getOrDefault("etag", List.of())) {
				if (!ENTITY_TAG.matcher(tag).matches()) {
					findings.add("malformed ETag");
				}
			}
		}
		if (!answer.successful()) {
			FileTreeSnapshot after = FileTreeSnapshot.of(this.root, this.digests);
			if (!after.equals(this.snapshot)) {
				findings.add("files changed by a " + ((answer.failure() != null) ? "request without answer"
						: answer.status()) + ": " + after.differencesFrom(this.snapshot));
				this.snapshot = after;
			}
		}
		return findings;
	}

	private static String problemFinding(SweepWire.Answer answer, JsonNode problem) {
		String contentType = answer.header("Content-Type");
		if (contentType == null
				|| !MediaType.parseMediaType(contentType).equalsTypeAndSubtype(MediaType.APPLICATION_PROBLEM_JSON)) {
			return "not a problem document: Content-Type " + contentType;
		}
		if (problem == null || !problem.isObject()) {
			return "not a problem document: no JSON object";
		}
		List<String> types = Arrays.stream(ProblemType.values()).map(type -> type.type().toString()).toList();
		if (!types.contains(problem.path("type").asString(""))) {
			return "problem document without a known type";
		}
		if (problem.path("title").asString("").isBlank()) {
			return "problem document without a title";
		}
		if (problem.path("status").asInt(-1) != answer.status()) {
			return "problem document whose status is " + problem.path("status");
		}
		return null;
	}

	/** The status and the problem type's slug, e.g. {@code 500 internal-error}. */
	static String outcome(SweepWire.Answer answer) {
		JsonNode problem = answer.json();
		String type = (problem != null) ? problem.path("type").asString("") : "";
		return answer.status() + (type.isEmpty() ? "" : " " + type.replace(ProblemType.BASE_URI, ""));
	}

	int requests() {
		return this.requestsByOperation.values().stream().mapToInt(Integer::intValue).sum();
	}

	Map<String, Integer> requestsByOperation() {
		return this.requestsByOperation;
	}

	List<Violation> violations() {
		return this.violations;
	}

	/** The violations grouped by cause (what was found, after which mutations), each with one example. */
	String report() {
		Map<String, List<Violation>> byCause = new LinkedHashMap<>();
		for (Violation violation : this.violations) {
			byCause.computeIfAbsent(violation.cause(), cause -> new ArrayList<>()).add(violation);
		}
		StringBuilder report = new StringBuilder();
		report.append(this.violations.size()).append(" violations in ").append(requests()).append(" requests, ")
			.append(byCause.size()).append(" distinct causes:\n");
		byCause.forEach((cause, violations) -> {
			Violation example = violations.get(0);
			TreeSet<String> operations = new TreeSet<>();
			violations.forEach(violation -> operations.add(violation.sweepCase().operation().id()));
			report.append("\n* ").append(cause).append(" — ").append(violations.size()).append("× on ").append(operations);
			report.append("\n  e.g. ").append(example.sweepCase()).append("\n    ").append(example.request());
			report.append("\n  answered ").append(example.answer()).append("\n  curl: ").append(example.request().curl(this.port))
				.append('\n');
		});
		return report.toString();
	}

	/**
	 * A rule a request broke.
	 *
	 * @param sweepCase what was sent, as the sweep built it
	 * @param request what went on the wire
	 * @param answer what came back
	 * @param finding the rule broken, and how
	 */
	record Violation(SweepCase sweepCase, SweepRequest request, SweepWire.Answer answer, String finding) {

		String cause() {
			String known = this.sweepCase.known();
			String finding = this.finding.startsWith("files changed") ? this.finding.replaceAll(": .*", "")
					: this.finding;
			return (known.isEmpty() ? "" : "[known " + known + "] ") + finding + " ← " + this.sweepCase.kinds();
		}

	}

}
