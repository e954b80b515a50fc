package dev.arbor.explorer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.arbor.TestSessions;
import dev.arbor.session.Json;
import dev.arbor.summary.BranchSummary;
import dev.arbor.web.ScriptedSummarizer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The explorer at {@code /} in headless Chromium against the running application, driven as a person would drive it:
 * the sessions, the tree selector with its filters and search, navigation with a summary (from the scripted test
 * summarizer), labels, branching, live updates, a 412 and keyboard-only use; and session content that tries to be
 * markup. Screenshots of the main views go to {@code target/screenshots/}.
 */
@Import(ScriptedSummarizer.Registered.class)
class ExplorerBrowserTests extends AbstractBrowserTests {

	@Autowired
	ScriptedSummarizer summarizer;

	@BeforeEach
	void resetSummarizer() {
		this.summarizer.reset();
	}

	@Test
	void listOpenFilterSearchNavigateWithSummaryLabelAndBranch(@TempDir Path files) {
		JsonNode omp = this.api.importCopy(TestSessions.bytes(TestSessions.OMP_V3));
		String site = this.api.create("Feed for the gannet site generator", "/home/me/site");
		String ompId = omp.get("id").asString();

		open("/");
		waitFor(By.cssSelector("li.session[data-session-id='" + ompId + "']"));
		waitFor(By.cssSelector("li.session[data-session-id='" + site + "']"));
		int before = sessionIds().size();
		// a pi file through the file picker, twice: the second time its id is taken, and it goes in as a copy
		String piPath = TestSessions.copy(TestSessions.PI_V2, files).toAbsolutePath().toString();
		this.driver.findElement(By.cssSelector("input[type=file]")).sendKeys(piPath);
		waitFor(By.cssSelector("li.session[data-session-id='" + TestSessions.PI_V2_SESSION_ID + "']"));
		waitUntil(() -> text("#notice").contains("Imported " + TestSessions.PI_V2));
		this.driver.findElement(By.cssSelector("input[type=file]")).sendKeys(piPath);
		waitFor(dialogTitled("Session exists")).findElement(By.cssSelector("button[type=submit]")).click();
		waitUntil(() -> sessionIds().size() == before + 2);
		Screenshots.save(this.driver, "explorer-sessions");
		type(By.cssSelector(".sessions input.search"), "gannet");
		waitUntil(() -> sessionIds().equals(List.of(site)));
		assertThat(this.driver.getCurrentUrl()).endsWith("#/?q=gannet");
		clear(By.cssSelector(".sessions input.search"));
		waitUntil(() -> sessionIds().size() == before + 2);

		click(By.cssSelector("li.session[data-session-id='" + ompId + "'] a.session-title"));
		waitUntil(() -> this.driver.getCurrentUrl().contains("#/sessions/" + ompId)); // then the entry under the cursor
		// it opens on the leaf, or on its nearest ancestor that is a row of the view (as the terminal selector does)
		JsonNode selected = this.api.get("/sessions/" + ompId + "/tree/rows?aroundSelected=true&limit=1");
		waitFor(By.cssSelector(".rows .row.cursor[data-entry-id='" + selected.get("selectedId").asString() + "']"));
		String entries = String.format("%,d", omp.get("entryCount").asInt());
		assertThat(text(".tree-status")).isEqualTo(String.format("%,d of %s entries shown", selected.get("matched").asInt(), entries));

		String rows = "/sessions/" + ompId + "/tree/rows?filter=user-only&limit=1";
		int users = this.api.get(rows).get("matched").asInt();
		assertThat(users).as("the user messages of every branch").isEqualTo(17);
		click(By.cssSelector("button.filter[data-filter='user-only']"));
		waitUntil(() -> text(".tree-status").equals(users + " of " + entries + " entries shown"));
		// each row's text as upstream's selector writes it, a user message's after "user: "
		assertThat(rowTexts()).isNotEmpty().allMatch((text) -> text.startsWith("user: "));
		assertThat(this.driver.getCurrentUrl()).contains("filter=user-only");
		int matched = this.api.get(rows + "&q=atom").get("matched").asInt();
		assertThat(matched).isBetween(1, users - 1);
		type(By.cssSelector(".tree-toolbar input.search"), "atom");
		waitUntil(() -> text(".tree-status").equals(matched + " of " + entries + " entries shown"));
		clear(By.cssSelector(".tree-toolbar input.search"));
		waitUntil(() -> text(".tree-status").startsWith(users + " of "));

		// navigate to the fourth user message before the leaf's, with a summary of the branch left behind
		// found and clicked in one step, again if the tree drew its rows anew meanwhile (the old ones are then stale)
		String[] clicked = new String[1];
		waitUntil(() -> {
			int cursor = Integer.parseInt(this.driver.findElement(By.cssSelector(".rows .row.cursor")).getAttribute("data-index"));
			WebElement target = this.driver.findElement(By.cssSelector(".rows .row[data-index='" + (cursor - 4) + "']"));
			clicked[0] = target.getAttribute("data-entry-id");
			target.click();
			return true;
		});
		String targetId = clicked[0];
		waitUntil(() -> this.driver.getCurrentUrl().contains("/entries/" + targetId));
		click(button(".entry-panel", "Navigate here…"));
		WebElement dialog = waitFor(By.cssSelector("dialog.modal[open]"));
		assertThat(dialog.getText()).contains("Branch left behind").contains("Text for the editor");
		dialog.findElement(By.name("summarize")).click();
		dialog.findElement(By.name("instructions")).sendKeys("Keep it short.");
		dialog.findElement(By.cssSelector("button[type=submit]")).click();
		WebElement outcome = waitFor(dialogTitled("Navigated"));
		assertThat(outcome.getText()).contains("Summary written").contains("Summary of ");
		Screenshots.save(this.driver, "explorer-navigated");
		String leaf = this.api.leaf(ompId);
		JsonNode summary = this.api.get("/sessions/" + ompId + "/entries/" + leaf).get("entry");
		assertThat(summary.get("type").asString()).isEqualTo("branch_summary");
		assertThat(outcome.getText()).contains(summary.get("id").asString());
		assertThat(this.summarizer.calls).singleElement()
			.satisfies((call) -> assertThat(call.customInstructions()).isEqualTo("Keep it short."));
		outcome.findElement(By.cssSelector("button[type=submit]")).click();

		// label the target
		open("/#/sessions/" + ompId + "/entries/" + targetId);
		click(button(".entry-panel", "Label…"));
		WebElement labelDialog = waitFor(By.cssSelector("dialog.modal[open]"));
		labelDialog.findElement(By.name("label")).sendKeys("before the atom feed", Keys.ENTER);
		waitFor(By.cssSelector(".row[data-entry-id='" + targetId + "'] .label"));
		Screenshots.save(this.driver, "explorer-session");
		click(By.cssSelector("button.filter[data-filter='labeled-only']"));
		waitUntil(() -> rowLabels().contains("before the atom feed"));
		assertThat(this.api.get("/sessions/" + ompId + "/labels").get(targetId).asString())
			.isEqualTo("before the atom feed");

		// branch from it: the new session opens
		click(button(".entry-panel", "Branch from here"));
		waitUntil(() -> !this.driver.getCurrentUrl().contains(ompId) && this.driver.getCurrentUrl().contains("#/sessions/"));
		String branched = shownSessionId();
		JsonNode session = this.api.get("/sessions/" + branched);
		assertThat(session.get("parentSession").asString()).isEqualTo(ompId);
		waitUntil(() -> text(".session-meta").contains(session.get("entryCount").asInt() + " entries"));
		waitFor(By.cssSelector(".lineage-parent a[data-session-id='" + ompId + "']"));
		assertThat(browser.console()).noneMatch((entry) -> entry.getMessage().contains("Content Security Policy"));
	}

	@Test
	void sessionsShouldComeAndGoLiveAndBeDeletedAfterConfirmation() {
		open("/");
		waitFor(By.cssSelector("#live-state[data-state='live']"));
		String elsewhere = this.api.create("Comes and goes", "/home/me/list");
		waitFor(By.cssSelector("li.session[data-session-id='" + elsewhere + "']"));
		this.api.delete(elsewhere);
		waitUntil(() -> !sessionIds().contains(elsewhere));

		String doomed = this.api.create("Deleted from the page", "/home/me/list");
		click(By.cssSelector("li.session[data-session-id='" + doomed + "'] button.danger"));
		WebElement confirm = waitFor(dialogTitled("Delete session"));
		assertThat(confirm.getText()).contains("Deleted from the page").contains("cannot be undone");
		confirm.findElement(By.cssSelector("button[type=submit]")).click();
		waitUntil(() -> !sessionIds().contains(doomed));
		assertThat(this.api.exists(doomed)).isFalse();
	}

	@Test
	void anEntryShouldShowItsPartsPathAndContextAndStartNewSessions() {
		JsonNode omp = this.api.importCopy(TestSessions.bytes(TestSessions.OMP_V3));
		String sessionId = omp.get("id").asString();
		open("/#/sessions/" + sessionId + "/entries/6a01f202");
		waitUntil(() -> text(".entry-panel .entry-id").equals("6a01f202"));
		List<WebElement> calls = this.driver.findElements(By.cssSelector(".entry-panel details.tool-call"));
		assertThat(calls).extracting((call) -> call.findElement(By.tagName("summary")).getText())
			.containsExactly("Tool call: read", "Tool call: read");
		assertThat(calls).allMatch((call) -> call.getAttribute("open") == null);
		waitUntil(() -> text(".entry-panel .children h3").equals("Children (1)"));

		click(By.cssSelector(".entry-panel .children a"));
		waitUntil(() -> !this.driver.getCurrentUrl().endsWith("/entries/6a01f202"));
		this.driver.navigate().back();
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("/entries/6a01f202"));

		open("/#/sessions/" + sessionId + "/entries/346da38d");
		waitUntil(() -> text(".entry-panel .entry-id").equals("346da38d"));
		WebElement thinking = waitFor(By.cssSelector(".entry-panel details.thinking"));
		assertThat(thinking.getAttribute("open")).isNull();
		thinking.findElement(By.tagName("summary")).click();
		assertThat(thinking.findElement(By.cssSelector(".text")).getText()).isNotBlank();

		int pathLength = this.api.get("/sessions/" + sessionId + "/entries/346da38d/path").size();
		click(By.cssSelector(".entry-panel button[data-tab='path']"));
		waitUntil(() -> text(".tab-body h3").equals("Path from the root (" + pathLength + " entries)"));
		assertThat(this.driver.findElements(By.cssSelector(".tab-body .path li")).get(pathLength - 1).getText())
			.startsWith("346da38d");
		int messages = this.api.get("/sessions/" + sessionId + "/context?leafId=346da38d&format=llm").get("messages").size();
		click(By.cssSelector(".entry-panel button[data-tab='llm']"));
		waitUntil(() -> text(".tab-body h3").equals("What the model sees here (llm): " + messages + " messages"));

		click(button(".entry-panel", "New session up to here"));
		waitUntil(() -> !this.driver.getCurrentUrl().contains(sessionId));
		String upToHere = shownSessionId();
		assertThat(this.api.get("/sessions/" + upToHere).get("leafId").asString()).isEqualTo("346da38d");
		this.driver.navigate().back();
		waitUntil(() -> this.driver.getCurrentUrl().endsWith(sessionId + "/entries/346da38d"));
		waitUntil(() -> text(".session-meta").contains(sessionId));

		click(By.xpath("//div[@class='session-actions']/button[normalize-space()='Fork']"));
		waitUntil(() -> !this.driver.getCurrentUrl().contains(sessionId));
		String fork = shownSessionId();
		assertThat(this.api.get("/sessions/" + fork).get("entryCount").asInt()).isEqualTo(omp.get("entryCount").asInt());
	}

	@Test
	void aSummaryBeingWrittenShouldBeAbortedFromTheDialog() {
		String sessionId = this.api.create("Abort", "/home/me/abort");
		List<String> ids = this.api.appendUsers(sessionId, "One", "Two", "Three");
		CompletableFuture<BranchSummary> never = new CompletableFuture<>();
		this.summarizer.answer = (entries) -> never;
		open("/#/sessions/" + sessionId + "/entries/" + ids.get(1));
		click(button(".entry-panel", "Navigate here…"));
		WebElement dialog = waitFor(dialogTitled("Navigate"));
		dialog.findElement(By.name("summarize")).click();
		dialog.findElement(By.cssSelector("button[type=submit]")).click();
		waitUntil(() -> this.summarizer.calls.size() == 1);
		click(button(".modal", "Abort summary"));
		waitUntil(() -> text("#notice").contains("The navigation was aborted; nothing was changed."));
		assertThat(this.api.leaf(sessionId)).isEqualTo(ids.get(2));
	}

	@Test
	void anEntryAppendedOverHttpShouldAppearInTheOpenPageWithinTwoSeconds() {
		String sessionId = this.api.create("Live", "/home/me/live");
		this.api.appendUsers(sessionId, "First question");
		this.api.append(sessionId, "assistant", "First answer");
		open("/#/sessions/" + sessionId);
		waitFor(By.cssSelector(".rows .row.leaf"));
		waitFor(By.cssSelector("#live-state[data-state='live']"));

		long start = System.nanoTime();
		String appended = this.api.appendUsers(sessionId, "Appended by another client").get(0);
		// polled every 10 ms rather than every 500 ms, so that the time printed says how long it took
		new WebDriverWait(this.driver, Duration.ofSeconds(2)).pollingEvery(Duration.ofMillis(10)).until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector(".rows .row.leaf[data-entry-id='" + appended + "']")));
		long millis = (System.nanoTime() - start) / 1_000_000;
		assertThat(rowTexts()).contains("user: Appended by another client");
		assertThat(text(".session-meta")).contains("3 entries");
		System.out.printf("explorer: an entry appended over HTTP appeared in the page after %d ms%n", millis);
	}

	@Test
	void eachRowShouldReadAsUpstreamsSelectorDrawsIt() throws IOException {
		byte[] file;
		JsonNode expected;
		try (InputStream session = getClass().getResourceAsStream("/selector/kinds.jsonl");
				InputStream rows = getClass().getResourceAsStream("/selector/upstream-rows.json")) {
			file = session.readAllBytes();
			expected = Json.MAPPER.readTree(rows);
		}
		// what pi-coding-agent's own selector drew for this file as loaded, under the all filter
		JsonNode upstream = expected.valueStream()
			.filter((scenario) -> scenario.get("name").asString().equals("every kind"))
			.findFirst()
			.orElseThrow()
			.get("steps").get(0).get("views").get(4).get("rows");
		assertThat(upstream).hasSizeGreaterThan(10);
		String sessionId = this.api.importCopy(file).get("id").asString();
		open("/#/sessions/" + sessionId + "?filter=all");
		assertThat(this.api.get("/sessions/" + sessionId + "/tree/rows?filter=all&limit=1").get("matched").asInt())
			.isEqualTo(upstream.size());
		waitUntil(() -> rows().size() > 10);

		// Each drawn row as one line: the prefix, the active path's mark, [label] (its brackets come from the
		// stylesheet), the text; Arbor's leaf mark left out.
		@SuppressWarnings("unchecked")
		List<List<Object>> drawn = (List<List<Object>>) ((JavascriptExecutor) this.driver).executeScript(
				"return [...document.querySelectorAll('.rows .row[data-entry-id]')].map((row) => [Number(row.dataset.index), "
						+ "[...row.children].filter((part) => !part.classList.contains('leaf-mark'))"
						+ ".map((part) => part.classList.contains('label') ? `[${part.textContent}] ` : part.textContent).join('')])");
		assertThat(drawn).hasSizeGreaterThan(10);
		for (List<Object> row : drawn) {
			int index = ((Number) row.get(0)).intValue();
			assertThat(row.get(1)).as("row %d", index).isEqualTo(upstream.get(index).get(6).asString());
		}
	}

	@Test
	void aLeafMovedMeanwhileShouldBeExplainedAndTheViewRefreshed() {
		String sessionId = this.api.create("Conflict", "/home/me/conflict");
		List<String> ids = this.api.appendUsers(sessionId, "One", "Two", "Three");
		open("/#/sessions/" + sessionId + "/entries/" + ids.get(1));
		click(button(".entry-panel", "Navigate here…"));
		WebElement dialog = waitFor(By.cssSelector("dialog.modal[open]"));
		String other = this.api.appendUsers(sessionId, "Four, from someone else").get(0);
		dialog.findElement(By.cssSelector("button[type=submit]")).click();

		WebElement notice = waitFor(By.cssSelector("#notice[data-kind='error']"));
		waitUntil(notice::isDisplayed);
		assertThat(notice.getText()).contains("Someone else changed this session meanwhile")
			.contains(other)
			.contains("Nothing was changed");
		assertThat(this.driver.findElements(By.cssSelector("dialog.modal[open]"))).isEmpty();
		assertThat(this.api.leaf(sessionId)).isEqualTo(other);
		waitFor(By.cssSelector(".rows .row.leaf[data-entry-id='" + other + "']"));
		Screenshots.save(this.driver, "explorer-412");

		// recovered: the same navigation, made again on what the page now shows, goes through
		click(button(".entry-panel", "Navigate here…"));
		waitFor(By.cssSelector("dialog.modal[open] button[type=submit]")).click();
		waitFor(dialogTitled("Navigated"));
		assertThat(this.api.leaf(sessionId)).isEqualTo(ids.get(0));
	}

	@Test
	void theTreeShouldBeDrivenByTheKeyboardAlone() {
		String sessionId = this.api.create("Keys", "/home/me/keys");
		List<String> ids = this.api.appendUsers(sessionId, "u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7");
		open("/#/sessions/" + sessionId);
		waitFor(By.cssSelector(".rows .row.cursor[data-entry-id='" + ids.get(7) + "']"));
		assertThat(this.driver.switchTo().activeElement().getAttribute("class")).isEqualTo("rows");

		keys(Keys.HOME);
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("/entries/" + ids.get(0)));
		keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN);
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("/entries/" + ids.get(2)));
		waitUntil(() -> text(".entry-panel .entry-id").equals(ids.get(2)));
		keys(Keys.END);
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("/entries/" + ids.get(7)));
		keys(Keys.ARROW_DOWN); // wraps, as in the terminal selector
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("/entries/" + ids.get(0)));
		keys(Keys.PAGE_DOWN);
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("/entries/" + ids.get(7)));
		keys(Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_UP);
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("/entries/" + ids.get(4)));

		// Shift+L labels the row under the cursor; Enter saves
		new Actions(this.driver).keyDown(Keys.SHIFT).sendKeys("L").keyUp(Keys.SHIFT).perform();
		waitFor(By.cssSelector("dialog.modal[open] input[name=label]"));
		keys("kbd", Keys.ENTER);
		waitUntil(() -> this.driver.findElements(By.cssSelector(".row[data-entry-id='" + ids.get(4) + "'] .label")).size() == 1);

		// Enter navigates: the dry run, then Enter again goes, then Enter closes the outcome
		waitUntil(() -> this.driver.switchTo().activeElement().getAttribute("class").equals("rows"));
		keys(Keys.ENTER);
		waitFor(dialogTitled("Navigate"));
		keys(Keys.ENTER);
		waitFor(dialogTitled("Navigated"));
		keys(Keys.ENTER);
		waitUntil(() -> this.driver.findElements(By.cssSelector("dialog.modal[open]")).isEmpty());
		assertThat(this.api.leaf(sessionId)).isEqualTo(ids.get(3)); // a user message's parent: its text back to edit

		// typing searches
		keys("u6");
		waitUntil(() -> this.driver.getCurrentUrl().contains("q=u6"));
		waitUntil(() -> rowTexts().equals(List.of("user: u6")));
	}

	@Test
	void markupInASessionShouldRenderAsTextAndRunNothing() {
		String sessionId = this.api.create("<img src=x onerror=\"window.pwned='title'\">", "/home/<b>me</b>");
		String hostile = "<img src=x onerror=\"window.pwned='img'\"> and <script>window.pwned='script'</script>";
		String entryId = this.api.appendUsers(sessionId, hostile).get(0);
		this.api.append(sessionId, "assistant", "<a href=\"javascript:window.pwned='link'\">click</a>");

		open("/");
		waitFor(By.cssSelector("li.session[data-session-id='" + sessionId + "']"));
		assertThat(text("li.session[data-session-id='" + sessionId + "'] .session-title"))
			.isEqualTo("<img src=x onerror=\"window.pwned='title'\">");
		open("/#/sessions/" + sessionId + "/entries/" + entryId);
		waitUntil(() -> text(".entry-panel .entry .text").equals(hostile));
		assertThat(rowTexts()).contains("user: " + hostile);
		assertThat(this.driver.findElements(By.cssSelector("#view img, #view script, #view a[href^='javascript']"))).isEmpty();
		assertThat(((JavascriptExecutor) this.driver).executeScript("return window.pwned")).isNull();
		Screenshots.save(this.driver, "explorer-hostile");
	}

	/** The session in the page's address (which goes on to name the entry under the cursor). */
	private String shownSessionId() {
		return this.driver.getCurrentUrl().replaceAll(".*#/sessions/([^/?]+).*", "$1");
	}

	private List<String> sessionIds() {
		return this.driver.findElements(By.cssSelector("li.session"))
			.stream()
			.map((item) -> item.getAttribute("data-session-id"))
			.toList();
	}

	private List<WebElement> rows() {
		return this.driver.findElements(By.cssSelector(".rows .row[data-entry-id]"));
	}

	private WebElement rowAt(int index) {
		return waitFor(By.cssSelector(".rows .row[data-index='" + index + "']"));
	}

	/**
	 * The text of one cell of every row, read in one go in the page: the tree may draw its rows again between two
	 * WebDriver calls (a scroll, a live update), which leaves elements found before it stale.
	 */
	@SuppressWarnings("unchecked")
	private List<String> cellTexts(String cell) {
		return (List<String>) ((JavascriptExecutor) this.driver).executeScript(
				"return [...document.querySelectorAll('.rows .row[data-entry-id]')]"
						+ ".map((row) => row.querySelector(arguments[0]).innerText.trim())",
				cell);
	}

	private List<String> rowLabels() {
		return this.driver.findElements(By.cssSelector(".rows .row .label")).stream().map(WebElement::getText).toList();
	}

	private List<String> rowTexts() {
		return cellTexts(".text");
	}

}
