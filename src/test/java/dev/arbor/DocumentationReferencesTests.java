package dev.arbor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every reference in the code and the docs can be followed inside this repository: {@code docs/<NAME>.md#<anchor>}
 * in comments and text, and relative Markdown links between the docs, name a file that exists and a heading it has
 * (anchors as GitHub makes them). Sections are cited by heading, not by number, so no section sign is left, and no
 * tracker number either: a reader of the repository cannot look those up. Runs from the project root, which is
 * Maven's working directory.
 */
class DocumentationReferencesTests {

	/** What is searched for references and for what must not remain. */
	private static final List<String> ROOTS = List.of("src", "docs", "bench", "scripts", "README.md", ".ci",
			"Dockerfile", "docker-compose.yml", "deploy");

	/** Data, not prose: session fixtures hold whatever their conversations said. */
	private static final List<String> DATA_SUFFIXES = List.of(".jsonl", ".ndjson", ".json");

	/** {@code docs/API.md}, {@code docs/API.md#tree}: named from the project root, in any file. */
	private static final Pattern DOCS_REFERENCE = Pattern
		.compile("(?<![\\w./-])(docs/[A-Z][A-Z0-9_-]*\\.md)(?:#([\\w-]+))?");

	/** A relative Markdown link to a Markdown file, a heading in one, or both: {@code ](API.md#tree)}. */
	private static final Pattern MARKDOWN_LINK = Pattern
		.compile("\\]\\((?![a-z][a-z0-9+.-]*:)([^)#\\s]*\\.md)?(?:#([^)\\s]+))?\\)");

	private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})[ \\t]+(.*?)[ \\t#]*$");

	private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");

	private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

	private static final Pattern BUILD_OUTPUT = Pattern.compile("(.*/)?(target|node_modules|\\.git)/.*");

	private static final String SECTION_SIGN = "\u00a7";

	/**
	 * A tracker's number: a {@code #} and one to three digits not inside a word, an entity ({@code &#10;}), a URL
	 * ({@code /#12}), a code span or a hex colour; or "issue" followed by a number; or a branch named after one.
	 */
	private static final Pattern TRACKER_NUMBER = Pattern
		.compile("(?<![\\w&/#`{])#\\d{1,3}\\b|(?i:\\bissues?\\s+#?\\d+\\b)|\\bh\\d{1,3}-[a-z]+\\b");

	private final Path root = Path.of("").toAbsolutePath();

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	@Test
	void everyDocsAnchorReferenceResolves() {
		List<String> broken = new ArrayList<>();
		int checked = 0;
		for (Reference reference : references()) {
			if (reference.anchor() == null) {
				continue;
			}
			checked++;
			if (!Files.isRegularFile(reference.target())) {
				broken.add(reference + ": no such file");
			}
			else if (!anchorsOf(reference.target()).contains(reference.anchor())) {
				broken.add(reference + ": no heading with that anchor in " + this.root.relativize(reference.target()));
			}
		}
		assertThat(checked).as("references with an anchor found").isGreaterThan(100);
		assertThat(broken).as("references to a heading that does not exist").isEmpty();
	}

	@Test
	void everyDocsFileReferenceNamesAnExistingFile() {
		List<String> broken = new ArrayList<>();
		for (Reference reference : references()) {
			if (!Files.isRegularFile(reference.target())) {
				broken.add(reference + ": no such file");
			}
		}
		assertThat(broken).as("references to a file that does not exist").isEmpty();
	}

	@Test
	void noSectionSignRemains() {
		assertThat(offenders(Pattern.compile(Pattern.quote(SECTION_SIGN))))
			.as("sections are cited as docs/<NAME>.md#<anchor>, RFCs as \"RFC 9110, section 13.1.1\"")
			.isEmpty();
	}

	@Test
	void noTrackerNumberRemains() {
		assertThat(offenders(TRACKER_NUMBER)).as("tracker numbers, which a reader of the repository cannot look up")
			.isEmpty();
	}

	@Test
	void trackerNumbersAreToldFromWhatMerelyLooksLikeThem() {
		String hash = "#";
		assertThat(List.of("(" + hash + "15)", "for " + hash + "14", hash + "16:", "issue " + 5, "Issue " + 13,
				"branch `h" + "14-open`"))
			.allSatisfy(text -> assertThat(TRACKER_NUMBER.matcher(text).find()).as(text).isTrue());
		assertThat(List.of("color: " + hash + "fff;", hash + "1a2b3c", "&" + hash + "10;", "/" + hash + "/sessions/12",
				"http://host/" + hash + "12", "{@link " + hash + "NONE}", "`" + hash + "10`", "## Heading",
				"a" + hash + "1", "issues", "h2 heading"))
			.allSatisfy(text -> assertThat(TRACKER_NUMBER.matcher(text).find()).as(text).isFalse());
	}

	@Test
	void anchorsAreMadeAsGitHubMakesThem() {
		assertThat(slug("Versions: `ETag` and `If-Match`")).isEqualTo("versions-etag-and-if-match");
		assertThat(slug("Events (Server-Sent Events)")).isEqualTo("events-server-sent-events");
		assertThat(slug("A file, line by line")).isEqualTo("a-file-line-by-line");
		assertThat(slug("Slow bodies (`bench/slow-bodies.sh`)")).isEqualTo("slow-bodies-benchslow-bodiessh");
		assertThat(slug("Cold start: before and after (`bench/cold-start.sh`)"))
			.isEqualTo("cold-start-before-and-after-benchcold-startsh");
		assertThat(slug("The [explorer](EXPLORER.md) in 2 steps")).isEqualTo("the-explorer-in-2-steps");
		assertThat(slug("snake_case and  two spaces")).isEqualTo("snake_case-and--two-spaces");
		assertThat(anchors(List.of("# Title", "## Results", "```sh", "# a shell comment", "```", "## Results",
				"### Results")))
			.containsExactly("title", "results", "results-1", "results-2");
	}

	/**
	 * References in every text file under the roots, and Markdown links in the Markdown files among them; a link
	 * that is also a {@code docs/} reference (the README's) counts once.
	 */
	private List<Reference> references() {
		Map<String, Reference> references = new LinkedHashMap<>();
		for (Path file : textFiles()) {
			String text = read(file);
			Matcher docs = DOCS_REFERENCE.matcher(text);
			while (docs.find()) {
				add(references, new Reference(file, line(text, docs.start()), docs.group(),
						this.root.resolve(docs.group(1)).normalize(), docs.group(2)));
			}
			if (file.toString().endsWith(".md")) {
				Matcher link = MARKDOWN_LINK.matcher(text);
				while (link.find()) {
					if (link.group(1) == null && link.group(2) == null) {
						continue;
					}
					Path target = (link.group(1) != null) ? file.getParent().resolve(link.group(1)).normalize() : file;
					add(references, new Reference(file, line(text, link.start()), link.group().substring(1), target,
							link.group(2)));
				}
			}
		}
		assertThat(references).as("references found").isNotEmpty();
		return new ArrayList<>(references.values());
	}

	private static void add(Map<String, Reference> references, Reference reference) {
		references.putIfAbsent(reference.file() + ":" + reference.line() + ":" + reference.target() + "#"
				+ reference.anchor(), reference);
	}

	private List<String> offenders(Pattern pattern) {
		List<String> offenders = new ArrayList<>();
		for (Path file : textFiles()) {
			if (DATA_SUFFIXES.stream().anyMatch(file.toString()::endsWith) || file.toString().endsWith(".css")) {
				continue;
			}
			String text = read(file);
			Matcher matcher = pattern.matcher(text);
			while (matcher.find()) {
				int line = line(text, matcher.start());
				offenders.add(this.root.relativize(file) + ":" + line + ": " + text.lines().skip(line - 1).findFirst()
					.orElse("")
					.strip());
			}
		}
		return offenders;
	}

	/** The regular files under the roots that are UTF-8 text, build output and Git's own files left out. */
	private List<Path> textFiles() {
		List<Path> files = new ArrayList<>();
		for (String name : ROOTS) {
			Path start = this.root.resolve(name);
			if (!Files.exists(start)) {
				continue;
			}
			try (Stream<Path> walk = Files.walk(start)) {
				walk.filter(Files::isRegularFile)
					.filter((path) -> !BUILD_OUTPUT.matcher(this.root.relativize(path).toString()).matches())
					.filter(this::isText)
					.sorted()
					.forEach(files::add);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return files;
	}

	private boolean isText(Path file) {
		try {
			byte[] bytes = Files.readAllBytes(file);
			for (byte b : bytes) {
				if (b == 0) {
					return false;
				}
			}
			StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes));
			return true;
		}
		catch (CharacterCodingException ex) {
			return false;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Set<String> anchorsOf(Path markdown) {
		return this.anchors.computeIfAbsent(markdown, (file) -> anchors(read(file).lines().toList()));
	}

	/** The anchors of a Markdown file's headings, outside fenced code, with GitHub's suffixes for repeated ones. */
	static Set<String> anchors(List<String> lines) {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		String fence = null;
		for (String line : lines) {
			Matcher opening = FENCE.matcher(line);
			if (opening.find()) {
				if (fence == null) {
					fence = opening.group(1);
				}
				else if (fence.equals(opening.group(1))) {
					fence = null;
				}
				continue;
			}
			if (fence != null) {
				continue;
			}
			Matcher html = HTML_ANCHOR.matcher(line);
			while (html.find()) {
				anchors.add(html.group(1));
			}
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(2));
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	/**
	 * GitHub's anchor for a heading: the text as shown (a link's text, not its address), lower case, without what
	 * is not a letter, a digit, a space, a hyphen or an underscore, each space a hyphen.
	 */
	static String slug(String heading) {
		String shown = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
		return shown.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static int line(String text, int offset) {
		int line = 1;
		for (int i = 0; i < offset; i++) {
			if (text.charAt(i) == '\n') {
				line++;
			}
		}
		return line;
	}

	/** One reference: where it is, as written, and what it points at. */
	private record Reference(Path file, int line, String text, Path target, @Nullable String anchor) {

		@Override
		public String toString() {
			return Path.of("").toAbsolutePath().relativize(this.file) + ":" + this.line + ": " + this.text;
		}

	}

}
