package dev.arbor.storage.file;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import dev.arbor.TestSessions;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionLines;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionFileReader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link SessionLines}: a session as the lines of a version-3 file, what a rewrite writes and an export sends. */
class SessionLinesTests {

	@Test
	void writeToWhenV3SessionIsUnchangedShouldGiveTheFileBytes() throws IOException {
		SessionTree tree = read(TestSessions.OMP_V3);
		assertThat(bytes(SessionLines.of(tree))).isEqualTo(TestSessions.bytes(TestSessions.OMP_V3));
	}

	@Test
	void writeToWhenV1SessionWasMigratedShouldGiveAVersion3FileWithTheSameIds() throws IOException {
		SessionTree tree = read(TestSessions.PI_V1);
		byte[] written = bytes(SessionLines.of(tree));
		LoadedSession reloaded = SessionFileReader.read(FileLines.split(written), "written");
		assertThat(reloaded.fileVersion()).isEqualTo(3);
		assertThat(reloaded.needsRewrite()).isFalse();
		assertThat(reloaded.malformedLines()).isEmpty();
		assertThat(reloaded.endsWithNewline()).isTrue();
		assertThat(SessionFiles.ids(reloaded.tree().getEntries())).isEqualTo(SessionFiles.ids(tree.getEntries()));
		assertThat(new String(written, StandardCharsets.UTF_8).lines()).hasSize(1 + 49);
		assertThat(bytes(SessionLines.of(reloaded.tree()))).isEqualTo(written); // a second write changes nothing
	}

	@Test
	void writeToWhenSessionHasNoEntriesShouldWriteTheHeaderLineOnly() throws IOException {
		SessionHeader header = SessionHeader.create("s-1", Instant.parse("2025-01-01T00:00:00Z"), "/w", null, null);
		assertThat(new String(bytes(new SessionLines(null, header, List.of())), StandardCharsets.UTF_8))
			.isEqualTo(new String(header.json().bytes(), StandardCharsets.UTF_8) + "\n")
			.startsWith("{\"type\":\"session\",\"version\":3,\"id\":\"s-1\"");
	}

	@Test
	void ofShouldBeACopyThatLaterAppendsDoNotChange() throws IOException {
		SessionTree tree = read(TestSessions.OMP_V3);
		SessionLines lines = SessionLines.of(tree);
		List<EntryLine> appended = tree.prepareAppend(List.of(SessionFiles.userMessage("later")), Instant.now());
		tree.append(appended);
		assertThat(tree.size()).isEqualTo(133);
		assertThat(lines.entries()).hasSize(132);
		assertThat(bytes(lines)).isEqualTo(TestSessions.bytes(TestSessions.OMP_V3));
	}

	private static SessionTree read(String testSession) {
		return SessionFileReader.read(FileLines.split(TestSessions.bytes(testSession)), testSession).tree();
	}

	private static byte[] bytes(SessionLines lines) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		lines.writeTo(out);
		return out.toByteArray();
	}

}
