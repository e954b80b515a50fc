package dev.arbor.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.drafts;
import static dev.arbor.session.Entries.json;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Appends through the API (docs/SESSION-FORMAT.md#entry-types): what each entry type must carry, what Arbor
 * assigns itself, and that a batch is checked whole before anything changes.
 */
class AppendValidationTests {

	private static final Instant NOW = Instant.parse("2025-06-01T12:34:56.789123Z");

	/**
	 * <pre>
	 * a
	 * ├── b   ← leaf
	 * └── c   (off the current path)
	 * </pre>
	 */
	private static SessionTree session() {
		SessionTree tree = tree(user("a", null, at(0), "first"), assistant("b", "a", at(1), "anthropic", "claude", "hi"),
				user("c", "a", at(2), "other branch"));
		tree.branch("b");
		return tree;
	}

	static Stream<String> validDrafts() {
		return Stream.of("{'type':'message','message':{'role':'user','content':'hi'}}",
				"{'type':'message','message':{'role':'assistant','content':[],'provider':'p','model':'m'}}",
				"{'type':'message','message':{'role':'developer','content':'rules'}}",
				"{'type':'message','message':{'role':'bashExecution','command':'ls','output':''}}",
				"{'type':'message','message':{'role':'user','content':[{'type':'text','text':'see'},{'type':'image','data':'iVBORw0KGgo=','mimeType':'image/png'}]}}",
				"{'type':'message','message':{'role':'assistant','content':[{'type':'thinking','thinking':'hm'},{'type':'toolCall','id':'c1','name':'read','arguments':{'path':'a'}},{'type':'redactedThinking','data':'x'}]}}",
				"{'type':'message','message':{'role':'toolResult','toolCallId':'c1','toolName':'read','content':[{'type':'text','text':'ok'}],'isError':false}}",
				"{'type':'message','message':{'role':'custom','customType':'note','content':'n','display':true}}",
				"{'type':'message','message':{'role':'branchSummary','summary':'s','fromId':'a'}}",
				"{'type':'message','message':{'role':'compactionSummary','summary':'s','tokensBefore':10}}",
				"{'type':'message','message':{'role':'system','content':'be brief'}}",
				"{'type':'thinking_level_change','thinkingLevel':'high'}",
				"{'type':'thinking_level_change','thinkingLevel':null}",
				"{'type':'model_change','model':'anthropic/claude-sonnet-4-5'}",
				"{'type':'model_change','model':'openai/gpt-5','role':'smol'}",
				"{'type':'model_change','provider':'anthropic','modelId':'claude-sonnet-4-5'}",
				"{'type':'mode_change','mode':'plan','data':{'file':'plan.md'}}", "{'type':'mode_change','mode':'none'}",
				"{'type':'ttsr_injection','injectedRules':['no-any','tests-first']}",
				"{'type':'ttsr_injection','injectedRules':[]}",
				"{'type':'compaction','summary':'Earlier work.','firstKeptEntryId':'a','tokensBefore':1234}",
				"{'type':'compaction','summary':'Earlier work.','firstKeptEntryId':'b','tokensBefore':1,'details':{},'fromHook':true}",
				"{'type':'custom','customType':'session_exit','data':{'reason':'sighup'}}",
				"{'type':'custom','customType':'marker'}",
				"{'type':'custom_message','customType':'note','content':'text','display':true}",
				"{'type':'custom_message','customType':'note','content':[{'type':'text','text':'t'}],'display':false,'details':{'k':1}}",
				"{'type':'label','targetId':'a','label':'start'}", "{'type':'label','targetId':'c','label':'elsewhere'}",
				"{'type':'label','targetId':'a'}", "{'type':'label','targetId':'a','label':''}",
				"{'type':'session_init','systemPrompt':'x','tools':['read']}",
				"{'type':'service_tier_change','serviceTier':'priority'}", "{'type':'title_change','title':'New title'}",
				"{'type':'credential_pin','provider':'anthropic'}", "{'type':'reset_boundary'}");
	}

	@ParameterizedTest
	@MethodSource("validDrafts")
	void prepareAppendWhenDraftIsValidShouldChainItFromTheLeafAndKeepEveryField(String draft) {
		SessionTree tree = session();
		ObjectNode sent = json(draft);
		List<EntryLine> lines = tree.prepareAppend(List.of(sent), NOW);
		assertThat(lines).hasSize(1);
		EntryLine line = lines.get(0);
		assertThat(line.type()).isEqualTo(sent.get("type").asString());
		assertThat(line.parentId()).isEqualTo("b");
		assertThat(line.id()).matches("[0-9a-f]{8}");
		ObjectNode stored = line.toNode();
		assertThat(stored.get("timestamp").asString()).isEqualTo("2025-06-01T12:34:56.789Z");
		for (String field : sent.propertyNames()) {
			assertThat(stored.get(field)).as(field).isEqualTo(sent.get(field));
		}
		assertThat(stored.propertyNames()).hasSize(sent.size() + 3);
	}

	@Test
	void prepareAppendWhenDraftHasExactNumbersShouldStoreTheirDigitsAsSent() {
		String numbers = "\"cost\":1.10,\"tokens\":12345678901234567890123,\"ratio\":0.1000000000000000055511151231257827,\"huge\":1E+400";
		ObjectNode draft = json("{'type':'custom','customType':'usage','data':{" + numbers.replace('"', '\'') + "}}");
		EntryLine line = session().prepareAppend(List.of(draft), NOW).get(0);
		assertThat(line.json()).contains("\"data\":{" + numbers + "}");
	}

	static Stream<Arguments> invalidDrafts() {
		return Stream.of(arguments("{'message':{'role':'user'}}", "type"),
				arguments("{'type':7,'message':{'role':'user'}}", "type"),
				arguments("{'type':'message'}", "message"),
				arguments("{'type':'message','message':'hello'}", "message"),
				arguments("{'type':'message','message':{'content':'no role'}}", "message.role"),
				arguments("{'type':'message','message':{'role':3}}", "message.role"),
				arguments("{'type':'message','message':{'role':'banana','content':'x'}}", "message.role"),
				arguments("{'type':'message','message':{'role':'hookMessage','content':'x'}}", "message.role"),
				arguments("{'type':'message','message':{'role':'user'}}", "message.content"),
				arguments("{'type':'message','message':{'role':'user','content':42}}", "message.content"),
				arguments("{'type':'message','message':{'role':'assistant','content':null}}", "message.content"),
				arguments("{'type':'message','message':{'role':'user','content':['hi']}}", "message.content[0]"),
				arguments("{'type':'message','message':{'role':'user','content':[{'text':'no type'}]}}", "message.content[0]"),
				arguments("{'type':'message','message':{'role':'user','content':[{'type':'text','text':'a'},{'type':'text'}]}}",
						"message.content[1].text"),
				arguments("{'type':'message','message':{'role':'user','content':[{'type':'image','data':'x'}]}}",
						"message.content[0].mimeType"),
				arguments("{'type':'message','message':{'role':'assistant','content':[{'type':'toolCall','id':'c','name':'n','arguments':'{}'}]}}",
						"message.content[0].arguments"),
				arguments("{'type':'message','message':{'role':'toolResult','content':[]}}", "message.toolCallId"),
				arguments("{'type':'message','message':{'role':'toolResult','toolCallId':'c','content':[],'isError':'no'}}",
						"message.isError"),
				arguments("{'type':'message','message':{'role':'bashExecution','command':'ls'}}", "message.output"),
				arguments("{'type':'message','message':{'role':'custom','content':'x'}}", "message.customType"),
				arguments("{'type':'message','message':{'role':'branchSummary'}}", "message.summary"),
				arguments("{'type':'thinking_level_change'}", "thinkingLevel"),
				arguments("{'type':'thinking_level_change','thinkingLevel':3}", "thinkingLevel"),
				arguments("{'type':'model_change'}", "model"),
				arguments("{'type':'model_change','model':42}", "model"),
				arguments("{'type':'model_change','provider':'anthropic'}", "model"),
				arguments("{'type':'model_change','modelId':'claude'}", "model"),
				arguments("{'type':'model_change','model':'a/b','role':1}", "role"),
				arguments("{'type':'mode_change'}", "mode"),
				arguments("{'type':'mode_change','mode':true}", "mode"),
				arguments("{'type':'ttsr_injection'}", "injectedRules"),
				arguments("{'type':'ttsr_injection','injectedRules':'one'}", "injectedRules"),
				arguments("{'type':'ttsr_injection','injectedRules':['ok',2]}", "injectedRules"),
				arguments("{'type':'compaction','summary':'s','tokensBefore':1}", "firstKeptEntryId"),
				arguments("{'type':'compaction','summary':'s','firstKeptEntryId':'c','tokensBefore':1}",
						"firstKeptEntryId"),
				arguments("{'type':'compaction','summary':'s','firstKeptEntryId':'zzz','tokensBefore':1}",
						"firstKeptEntryId"),
				arguments("{'type':'compaction','firstKeptEntryId':'a','tokensBefore':1}", "summary"),
				arguments("{'type':'compaction','summary':'s','firstKeptEntryId':'a','tokensBefore':'many'}",
						"tokensBefore"),
				arguments("{'type':'branch_summary','fromId':'a','summary':'s'}", "type"),
				arguments("{'type':'custom'}", "customType"),
				arguments("{'type':'custom','customType':''}", "customType"),
				arguments("{'type':'custom','customType':5}", "customType"),
				arguments("{'type':'custom_message','customType':'note','display':true}", "content"),
				arguments("{'type':'custom_message','customType':'note','content':5}", "content"),
				arguments("{'type':'custom_message','customType':'note','content':{'text':'x'}}", "content"),
				arguments("{'type':'custom_message','customType':5,'content':'x'}", "customType"),
				arguments("{'type':'custom_message','customType':'note','content':'x','display':'yes'}", "display"),
				arguments("{'type':'label','label':'x'}", "targetId"),
				arguments("{'type':'label','targetId':'a','label':5}", "label"),
				arguments("{'type':'banana'}", "type"), arguments("{'type':'session','id':'s'}", "id"),
				arguments("{'type':'session'}", "type"), arguments("{'type':'title','title':'t'}", "type"),
				arguments("{'type':'custom','customType':'x','id':'abcdef01'}", "id"),
				arguments("{'type':'custom','customType':'x','parentId':'a'}", "parentId"),
				arguments("{'type':'custom','customType':'x','parentId':null}", "parentId"),
				arguments("{'type':'custom','customType':'x','timestamp':'2025-01-01T00:00:00.000Z'}", "timestamp"));
	}

	@ParameterizedTest
	@MethodSource("invalidDrafts")
	void prepareAppendWhenDraftIsInvalidShouldNameTheFieldAndChangeNothing(String draft, String field) {
		SessionTree tree = session();
		List<EntryLine> before = List.copyOf(tree.getEntries());
		assertThatExceptionOfType(InvalidEntryException.class)
			.isThrownBy(() -> tree.prepareAppend(List.of(json(draft)), NOW))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo(field));
		assertThat(tree.getEntries()).containsExactlyElementsOf(before);
		assertThat(tree.leafId()).isEqualTo("b");
	}

	@Test
	void prepareAppendWhenLabelTargetIsUnknownShouldFailWithEntryNotFound() {
		SessionTree tree = session();
		assertThatExceptionOfType(EntryNotFoundException.class)
			.isThrownBy(() -> tree.prepareAppend(drafts("{'type':'label','targetId':'ghost','label':'boo'}"), NOW))
			.withMessage("Entry ghost not found");
	}

	@Test
	void prepareAppendWhenLeafIsResetShouldRefuseAnyFirstKeptEntryId() {
		SessionTree tree = session();
		tree.resetLeaf();
		assertThatExceptionOfType(InvalidEntryException.class)
			.isThrownBy(() -> tree.prepareAppend(
					drafts("{'type':'compaction','summary':'s','firstKeptEntryId':'a','tokensBefore':1}"), NOW))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("firstKeptEntryId"));
	}

	@Test
	void prepareAppendWhenCompactionKeepsFromTheLeafShouldAcceptIt() {
		SessionTree tree = session();
		tree.branch("c");
		List<EntryLine> lines = tree.prepareAppend(
				drafts("{'type':'compaction','summary':'s','firstKeptEntryId':'c','tokensBefore':1}"), NOW);
		assertThat(lines.get(0).parentId()).isEqualTo("c");
	}

	@Test
	void compactionAndLabelShouldAcceptAnEntryCreatedEarlierInTheSameBatch() {
		// New ids are random, so the batch is planned in steps: one planner is one batch (SessionTree#prepareAppend).
		SessionTree tree = session();
		AppendPlanner batch = new AppendPlanner(tree, NOW, null);
		EntryLine compaction = batch
			.plan(drafts("{'type':'compaction','summary':'s','firstKeptEntryId':'a','tokensBefore':1}"))
			.get(0);
		EntryLine message = batch.plan(drafts("{'type':'message','message':{'role':'user','content':'new'}}")).get(0);
		List<EntryLine> rest = batch.plan(List.of(
				json("{'type':'compaction','summary':'s','firstKeptEntryId':'" + message.id() + "','tokensBefore':2}"),
				json("{'type':'label','targetId':'" + compaction.id() + "','label':'new'}")));
		assertThat(message.parentId()).isEqualTo(compaction.id());
		assertThat(rest.get(0).parentId()).isEqualTo(message.id());
		assertThat(rest.get(1).parentId()).isEqualTo(rest.get(0).id());
		assertThat(tree.size()).isEqualTo(3);
	}

	@Test
	void compactionAndLabelShouldRefuseAnEntryOfAnotherBatchThatWasNeverAppended() {
		SessionTree tree = session();
		EntryLine unsent = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'x'}}"), NOW)
			.get(0);
		assertThatExceptionOfType(InvalidEntryException.class)
			.isThrownBy(() -> tree.prepareAppend(List.of(json(
					"{'type':'compaction','summary':'s','firstKeptEntryId':'" + unsent.id() + "','tokensBefore':1}")),
					NOW))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("firstKeptEntryId"));
		assertThatExceptionOfType(EntryNotFoundException.class)
			.isThrownBy(() -> tree.prepareAppend(List.of(json("{'type':'label','targetId':'" + unsent.id() + "'}")), NOW))
			.satisfies((ex) -> assertThat(ex.entryId()).isEqualTo(unsent.id()));
	}

	@Test
	void prepareAppendWhenAnEntryOfABatchIsInvalidShouldNameItsIndexAndChangeNothing() {
		SessionTree tree = session();
		List<EntryLine> before = List.copyOf(tree.getEntries());
		List<ObjectNode> batch = drafts("{'type':'message','message':{'role':'user','content':'one'}}",
				"{'type':'label','targetId':'a','label':'two'}", "{'type':'message','message':{'content':'three'}}");
		assertThatExceptionOfType(InvalidEntryException.class).isThrownBy(() -> tree.prepareAppend(batch, NOW))
			.satisfies((ex) -> {
				assertThat(ex.field()).isEqualTo("[2].message.role");
				assertThat(ex.getMessage()).startsWith("Entry 2 of the batch: ");
			});
		assertThat(tree.getEntries()).containsExactlyElementsOf(before);
		assertThat(tree.size()).isEqualTo(3);
		assertThat(tree.leafId()).isEqualTo("b");
		assertThat(tree.getLabel("a")).isNull();
	}

	@Test
	void prepareAppendWhenAnEntryOfABatchHasNoTypeShouldNameItsIndex() {
		SessionTree tree = session();
		assertThatExceptionOfType(InvalidEntryException.class)
			.isThrownBy(() -> tree.prepareAppend(drafts("{'type':'custom','customType':'x'}", "{}"), NOW))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("[1].type"));
	}

	@Test
	void prepareAppendWhenBatchIsEmptyShouldRefuseIt() {
		assertThatExceptionOfType(InvalidEntryException.class)
			.isThrownBy(() -> session().prepareAppend(List.of(), NOW))
			.satisfies((ex) -> assertThat(ex.field()).isNull());
	}

	@Test
	void prepareAppendShouldNeverChangeTheTreeOrTheDrafts() {
		SessionTree tree = session();
		List<EntryLine> before = List.copyOf(tree.getEntries());
		List<ObjectNode> batch = drafts("{'type':'message','message':{'role':'user','content':'one'}}",
				"{'type':'label','targetId':'a','label':'two'}");
		List<ObjectNode> copies = new ArrayList<>();
		batch.forEach((draft) -> copies.add(draft.deepCopy()));
		List<EntryLine> lines = tree.prepareAppend(batch, NOW);
		assertThat(lines).hasSize(2);
		assertThat(tree.getEntries()).containsExactlyElementsOf(before);
		assertThat(tree.leafId()).isEqualTo("b");
		assertThat(tree.getLabel("a")).isNull();
		assertThat(tree.contains(lines.get(0).id())).isFalse();
		assertThat(batch).isEqualTo(copies);
	}

	@Test
	void appendShouldAddThePreparedEntriesInOrder() {
		SessionTree tree = session();
		List<EntryLine> lines = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'one'}}",
				"{'type':'label','targetId':'a','label':'two'}"), NOW);
		tree.append(lines);
		assertThat(tree.size()).isEqualTo(5);
		assertThat(tree.getEntries().subList(3, 5)).containsExactlyElementsOf(lines);
		assertThat(tree.getLabel("a")).isEqualTo("two");
		assertThat(tree.leafId()).isEqualTo(lines.get(1).id());
	}

	@Test
	void prepareAppendShouldWriteTheBaseFieldsFirst() {
		EntryLine line = session()
			.prepareAppend(drafts("{'type':'custom','customType':'marker','data':{'n':1}}"), NOW)
			.get(0);
		assertThat(line.json()).isEqualTo("{\"type\":\"custom\",\"id\":\"" + line.id()
				+ "\",\"parentId\":\"b\",\"timestamp\":\"2025-06-01T12:34:56.789Z\",\"customType\":\"marker\",\"data\":{\"n\":1}}");
	}

	@Test
	void prepareAppendWhenLeafIsNullShouldWriteANullParentId() {
		SessionTree tree = session();
		tree.resetLeaf();
		EntryLine line = tree.prepareAppend(drafts("{'type':'custom','customType':'marker'}"), NOW).get(0);
		assertThat(line.parentId()).isNull();
		assertThat(line.toNode().get("parentId").isNull()).isTrue();
	}

	@Test
	void newIdsShouldBeEightLowercaseHexDigitsUniqueInTheSession() {
		SessionTree tree = session();
		List<ObjectNode> batch = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			batch.add(json("{'type':'custom','customType':'n" + i + "'}"));
		}
		List<EntryLine> lines = tree.prepareAppend(batch, NOW);
		Set<String> ids = new HashSet<>(List.of("a", "b", "c"));
		for (EntryLine line : lines) {
			assertThat(line.id()).matches("[0-9a-f]{8}");
			assertThat(ids.add(line.id())).as("unique id %s", line.id()).isTrue();
		}
	}

	@Test
	void hex8ShouldWriteEightLowercaseDigits() {
		assertThat(EntryIds.hex8(0)).isEqualTo("00000000");
		assertThat(EntryIds.hex8(0xABCDEF12)).isEqualTo("abcdef12");
		assertThat(EntryIds.hex8(-1)).isEqualTo("ffffffff");
	}

	@Test
	void newIdShouldRetryWhileTheIdIsTaken() {
		Set<String> offered = new HashSet<>();
		String id = EntryIds.newId((candidate) -> offered.add(candidate) && offered.size() < 5);
		assertThat(offered).hasSize(5).contains(id);
	}

	@ParameterizedTest
	@ValueSource(strings = { "2025-06-01T12:00:00Z", "2025-06-01T12:00:00.000000001Z" })
	void timestampShouldAlwaysCarryMillisecondsInUtc(String now) {
		EntryLine line = session()
			.prepareAppend(drafts("{'type':'custom','customType':'marker'}"), Instant.parse(now))
			.get(0);
		assertThat(line.toNode().get("timestamp").asString()).isEqualTo("2025-06-01T12:00:00.000Z");
		assertThat(line.timestamp()).isEqualTo(Instant.parse("2025-06-01T12:00:00Z").toEpochMilli());
	}

}
