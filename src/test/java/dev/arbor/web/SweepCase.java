package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * One request of the sweep: an operation's valid request with hostile mutations applied, and what must come of it.
 * The request is built when it is sent, from the world as it is then (leaves move as the sweep goes).
 *
 * @param operation the operation aimed at
 * @param mutations what was changed, in order
 */
record SweepCase(ApiOperation operation, List<Mutation> mutations) {

	/** What a request must come to, beyond what every request must (no 5xx, problems, files kept). */
	enum Expect {

		/** Anything the universal rules allow: it may be valid. */
		ANY,

		/** Refused with a 4xx: it is invalid. */
		REFUSED,

		/**
		 * Refused: a method or transfer coding the server does not implement, where RFC 9110, section 15.6.2, and RFC
		 * 9112, section 6.1, allow a 501, as a problem document that does not call it an internal error.
		 */
		UNSUPPORTED

	}

	Expect expect() {
		Expect expect = Expect.ANY;
		for (Mutation mutation : this.mutations) {
			if (mutation.expect().ordinal() > expect.ordinal()) {
				expect = mutation.expect();
			}
		}
		return expect;
	}

	/** Whether the framing is broken so that the server may rightly drop the connection without an answer. */
	boolean mayGoUnanswered() {
		return this.mutations.stream().anyMatch(Mutation::mayGoUnanswered);
	}

	/**
	 * The defects already known before the sweep that this request runs into, by name, e.g. {@code huge-exponent};
	 * empty for none.
	 */
	String known() {
		return this.mutations.stream()
			.map(Mutation::known)
			.filter(known -> known != null)
			.distinct()
			.collect(Collectors.joining(","));
	}

	/** The mutations' kinds, which name the case's cause apart from the operation. */
	String kinds() {
		return this.mutations.stream().map(Mutation::kind).collect(Collectors.joining(" + "));
	}

	SweepRequest request(SweepWorld world) {
		Draft draft = Draft.valid(this.operation, world);
		this.mutations.forEach(mutation -> mutation.apply().accept(world, draft));
		return draft.render();
	}

	@Override
	public String toString() {
		String known = known();
		return this.operation + " with " + (this.mutations.isEmpty() ? "nothing hostile" : kinds())
				+ (known.isEmpty() ? "" : " [known " + known + "]") + " → " + expect();
	}

	/**
	 * One hostile change to a request.
	 *
	 * @param dimension what it changes ({@code path}, {@code query}, {@code header}, {@code body}, {@code method},
	 * {@code framing}); a random combination takes at most one of each
	 * @param kind what it does, short, without the operation: the cause's name in the report
	 * @param known the name of a defect already known that it runs into, {@code null} for none
	 * @param expect what must come of it
	 * @param mayGoUnanswered whether it breaks the framing so that no answer is acceptable
	 * @param apply the change
	 */
	record Mutation(String dimension, String kind, @Nullable String known, Expect expect, boolean mayGoUnanswered,
			BiConsumer<SweepWorld, Draft> apply) {

		static Mutation of(String dimension, String kind, Expect expect, BiConsumer<SweepWorld, Draft> apply) {
			return new Mutation(dimension, kind, null, expect, false, apply);
		}

		Mutation known(String name) {
			return new Mutation(this.dimension, this.kind, name, this.expect, this.mayGoUnanswered, this.apply);
		}

		Mutation unanswerable() {
			return new Mutation(this.dimension, this.kind, this.known, this.expect, true, this.apply);
		}

	}

	/** A request being built: the operation's valid request, then changed by mutations. */
	static final class Draft {

		String method;

		String path;

		final Map<String, String> variables = new LinkedHashMap<>();

		final List<String> query = new ArrayList<>();

		SweepRequest request;

		private Draft(String method, String path) {
			this.method = method;
			this.path = path;
			this.request = SweepRequest.of(method, path);
		}

		static Draft valid(ApiOperation operation, SweepWorld world) {
			Draft draft = new Draft(operation.method(), operation.path());
			SweepWorld.Branched branched = world.branched();
			for (String variable : operation.pathVariables()) {
				draft.variables.put(variable, switch (variable) {
					case "sessionId" -> branched.sessionId();
					case "entryId" -> branched.firstUser();
					default -> "nav-1";
				});
			}
			if (operation.mediaType() != null) {
				draft.header("Content-Type", operation.mediaType());
				draft.body(SweepBodies.valid(operation, world));
			}
			return draft;
		}

		void header(String name, @Nullable String value) {
			this.request = this.request.withHeader(name, value);
		}

		void addHeader(String name, String value) {
			this.request = this.request.header(name, value);
		}

		void body(byte @Nullable [] body) {
			this.request = this.request.body(body);
		}

		void body(String body) {
			body(body.getBytes(StandardCharsets.UTF_8));
		}

		byte @Nullable [] body() {
			return this.request.body();
		}

		SweepRequest render() {
			String target = this.path;
			for (Map.Entry<String, String> variable : this.variables.entrySet()) {
				target = target.replace("{" + variable.getKey() + "}", variable.getValue());
			}
			if (!this.query.isEmpty()) {
				target += "?" + String.join("&", this.query);
			}
			return this.request.method(this.method).target(target);
		}

	}

}
