package dev.arbor.explorer;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Finding a session in the explorer, in headless Chromium against the running application: the list's rows (name,
 * first message, message count, folder, age), the filter sent to {@code GET /sessions} as one types, with its pages,
 * its order and answers that come late; the search across sessions with its matches marked from offsets, its pages,
 * its partial answers and a hit opened at its entry; and a session's parent and forks. The tests of the class share
 * one storage directory, so each lists only sessions with a word of its own.
 */
class ExplorerFindSessionTests extends AbstractBrowserTests {

	@Test
	void aRowShouldShowTheNameTheFirstMessageTheMessagesTheFolderAndTheAgeAndFollowChanges() {
		String titled = this.api.create("Kestrel titled", "/home/me/kestrel");
		this.api.appendUsers(titled, "What the kestrel saw first");
		this.api.append(titled, "assistant", "A vole");
		String named = this.api.create("Kestrel title under a name", "/home/me/kestrel");
		this.api.appendUsers(named, "Named kestrel question");
		this.api.name(named, "kestrel by name");
		String untitled = this.api.create(null, "/home/me/kestrel/untitled");
		this.api.appendUsers(untitled, "Only a first kestrel message");

		open("/#/?q=kestrel");
		waitUntil(() -> sessionIds().size() == 3);
		assertThat(sessionIds()).containsExactly(untitled, named, titled); // the last changed first
		assertThat(cell(named, ".session-title")).isEqualTo("kestrel by name");
		assertThat(cell(named, ".session-first")).isEqualTo("Named kestrel question");
		assertThat(cell(titled, ".session-title")).isEqualTo("Kestrel titled");
		assertThat(cell(titled, ".session-first")).isEqualTo("What the kestrel saw first");
		assertThat(cell(titled, ".session-count")).isEqualTo("2 messages");
		assertThat(cell(titled, ".session-cwd")).isEqualTo("/home/me/kestrel");
		// no name and no title: the first message is the name, and is not said twice
		assertThat(cell(untitled, ".session-title")).isEqualTo("Only a first kestrel message");
		assertThat(row(untitled).findElements(By.cssSelector(".session-first"))).isEmpty();
		WebElement age = row(titled).findElement(By.cssSelector("time.session-changed"));
		assertThat(age.getText()).matches("just now|\\d+ seconds? ago");
		assertThat(age.getAttribute("title")).isEqualTo(this.api.get("/sessions/" + titled).get("changedAt").asString());
		Screenshots.save(this.driver, "explorer-session-rows");

		// an entry written by another client: counted, and its session comes to the top
		waitFor(By.cssSelector("#live-state[data-state='live']"));
		this.api.append(titled, "user", "One more kestrel question");
		waitUntil(() -> cell(titled, ".session-count").equals("3 messages"));
		assertThat(sessionIds()).containsExactly(titled, untitled, named);
	}

	@Test
	void theFilterShouldAskTheServerAsOneTypesPageOnWithTheCursorAndSayWhenNothingMatches() {
		List<String> plovers = IntStream.rangeClosed(1, 105)
			.mapToObj((n) -> this.api.create(String.format("Plover %03d", n), "/home/me/plover"))
			.toList();
		open("/");
		type(By.cssSelector(".sessions input.search"), "plov");
		waitUntil(() -> text(".sessions-status").equals("100 or more sessions match."));
		assertThat(sessionIds()).hasSize(100).isSubsetOf(plovers);
		assertThat(this.driver.getCurrentUrl()).endsWith("#/?q=plov");
		click(By.xpath("//section[contains(@class,'sessions')]/button[normalize-space()='Load more']"));
		waitUntil(() -> text(".sessions-status").equals("105 sessions match."));
		assertThat(sessionIds()).containsExactlyInAnyOrderElementsOf(plovers);
		assertThat(this.driver.findElements(By.xpath("//button[normalize-space()='Load more']")))
			.allMatch((button) -> !button.isDisplayed());

		type(By.cssSelector(".sessions input.search"), " zzqx");
		waitUntil(() -> text(".sessions-status").equals("No sessions match “plov zzqx”."));
		assertThat(sessionIds()).isEmpty();
	}

	@Test
	void theListShouldBeSortedAsChosenAndKeptCurrentUnderAFilter() {
		String b = this.api.create("Wren b", "/home/me/wren");
		this.api.appendUsers(b, "first wren message", "second wren message");
		String a = this.api.create("Wren a", "/home/me/wren");
		String c = this.api.create("Wren c", "/home/me/wren");
		open("/#/?q=wren");
		waitUntil(() -> sessionIds().equals(List.of(c, a, b)));

		new Select(waitFor(By.cssSelector(".sessions select.sort"))).selectByVisibleText("Name");
		waitUntil(() -> sessionIds().equals(List.of(a, b, c)));
		assertThat(this.driver.getCurrentUrl()).endsWith("#/?q=wren&sort=name");
		new Select(waitFor(By.cssSelector(".sessions select.sort"))).selectByVisibleText("Most messages");
		waitUntil(() -> sessionIds().get(0).equals(b));

		// created elsewhere while the list is filtered: the server says whether and where it is listed
		waitFor(By.cssSelector("#live-state[data-state='live']"));
		String d = this.api.create("Wren d", "/home/me/wren");
		this.api.create("Not a bird that is listed", "/home/me/elsewhere");
		waitUntil(() -> sessionIds().size() == 4);
		assertThat(sessionIds()).startsWith(b).contains(d);
	}

	@Test
	void anAnswerForAnOlderFilterShouldNeverReplaceTheAnswerForANewerOne() {
		String alpha = this.api.create("Heron alpha", "/home/me/heron");
		String beta = this.api.create("Heron beta", "/home/me/heron");
		String other = this.api.create("Not a bird of this test", "/home/me/elsewhere");
		open("/");
		waitUntil(() -> sessionIds().containsAll(List.of(alpha, beta, other)));
		// the answer for "heron" is held back 1.5 s in the page, so that it comes after the one for "heron beta"
		script("""
				const original = window.fetch;
				window.fetch = (resource, init) => {
					const url = new URL(String(resource), location.href);
					if (url.pathname !== '/sessions' || url.searchParams.get('q') !== 'heron') {
						return original(resource, init);
					}
					window.slowAsked = true;
					return new Promise((resolve) => setTimeout(resolve, 1500))
						.then(() => original(resource, init))
						.finally(() => setTimeout(() => { window.slowAnswered = true; }, 300));
				};""");
		type(By.cssSelector(".sessions input.search"), "heron");
		waitUntil(() -> Boolean.TRUE.equals(script("return window.slowAsked === true")));
		type(By.cssSelector(".sessions input.search"), " beta");
		waitUntil(() -> sessionIds().equals(List.of(beta)));
		waitUntil(() -> Boolean.TRUE.equals(script("return window.slowAnswered === true")));
		assertThat(sessionIds()).containsExactly(beta).doesNotContain(alpha);
		assertThat(text(".sessions-status")).isEqualTo("1 session matches.");
	}

	@Test
	void searchShouldMarkTheMatchesAsTextPageOnAndOpenTheSessionAtTheHit() {
		String sessionId = this.api.create("Osprey search target", "/home/me/osprey");
		String hostile = "<img src=x onerror=\"window.pwned='search'\"> the ospreyword is here";
		List<String> texts = new ArrayList<>();
		for (int i = 0; i < 250; i++) {
			texts.add((i == 125) ? hostile : (i % 10 == 0) ? "a ternword, number " + i : "filler " + i);
		}
		List<String> ids = this.api.appendUsersAtOnce(sessionId, texts);
		// the file store indexes on a thread of its own
		waitUntil(() -> this.api.get("/search?q=ospreyword").get("total").asInt() == 1
				&& this.api.get("/search?q=ternword").get("total").asInt() == 25);

		open("/");
		click(By.cssSelector("header.top a[href='#/search']"));
		type(By.cssSelector(".search-view input.search"), "ternword");
		waitUntil(() -> text(".search-status").equals("25 hits, 20 shown."));
		assertThat(hits()).hasSize(20);
		Screenshots.save(this.driver, "explorer-search");
		click(By.xpath("//section[contains(@class,'search-view')]/button[normalize-space()='More']"));
		waitUntil(() -> text(".search-status").equals("25 hits."));
		assertThat(hits()).hasSize(25)
			.allSatisfy((hit) -> assertThat(hit.findElements(By.tagName("mark"))).extracting(WebElement::getText)
				.containsExactly("ternword"));
		assertThat(this.driver.getCurrentUrl()).endsWith("#/search?q=ternword");
		assertThat(this.driver.findElement(By.cssSelector(".search-partial")).isDisplayed()).isFalse();

		clear(By.cssSelector(".search-view input.search"));
		type(By.cssSelector(".search-view input.search"), "ospreyword");
		waitUntil(() -> hits().size() == 1 && text(".search-status").equals("1 hit."));
		WebElement hit = hits().get(0);
		assertThat(hit.findElements(By.tagName("mark"))).extracting(WebElement::getText).containsExactly("ospreyword");
		assertThat(hit.findElement(By.cssSelector(".hit-snippet")).getText()).contains(hostile);
		waitUntil(() -> hit.findElement(By.cssSelector(".hit-session")).getText().equals("Osprey search target"));
		assertThat(hit.findElement(By.cssSelector(".hit-role")).getText()).isEqualTo("user");
		assertThat(hit.findElement(By.tagName("time")).getAttribute("title")).isNotBlank();
		assertThat(this.driver.findElements(By.cssSelector("#view img, #view script"))).isEmpty();
		assertThat(script("return window.pwned")).isNull();

		hit.findElement(By.cssSelector("a.hit-link")).click();
		String entryId = ids.get(125);
		waitUntil(() -> this.driver.getCurrentUrl().endsWith("#/sessions/" + sessionId + "/entries/" + entryId));
		waitFor(By.cssSelector(".rows .row.cursor[data-entry-id='" + entryId + "']"));
		waitUntil(() -> text(".entry-panel .entry-id").equals(entryId));
		assertThat(text(".entry-panel .entry .text")).isEqualTo(hostile);
		assertThat(script("return window.pwned")).isNull();
	}

	@Test
	void aPartialAnswerShouldSaySoAndAnEmptyOneThatNothingWasFound() {
		String sessionId = this.api.create("Partial search", "/home/me/partial");
		this.api.appendUsers(sessionId, "a grebeword to find");
		waitUntil(() -> this.api.get("/search?q=grebeword").get("total").asInt() == 1);
		open("/#/search");
		waitFor(By.cssSelector(".search-view input.search"));
		// the index being built is the file store's start-up: here the page is told so, as Arbor would tell it
		script("""
				const original = window.fetch;
				window.fetch = async (resource, init) => {
					const response = await original(resource, init);
					if (new URL(String(resource), location.href).pathname !== '/search') {
						return response;
					}
					const body = await response.json();
					body.partial = true;
					return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
				};""");
		type(By.cssSelector(".search-view input.search"), "grebeword");
		waitUntil(() -> hits().size() == 1);
		assertThat(this.driver.findElement(By.cssSelector(".search-partial")).isDisplayed()).isTrue();
		assertThat(text(".search-partial")).contains("still being built");

		type(By.cssSelector(".search-view input.search"), " nothingsuchword");
		waitUntil(() -> text(".search-status").equals("Nothing found for “grebeword nothingsuchword”."));
		assertThat(hits()).isEmpty();
	}

	@Test
	void aSessionShouldLinkItsParentAndItsForksAndSayWhenItsParentIsMissing() {
		String parent = this.api.create("Lineage parent", "/home/me/lineage");
		this.api.appendUsers(parent, "the first lineage message");
		String first = this.api.fork(parent);
		String second = this.api.fork(parent);
		String grandchild = this.api.fork(first);

		open("/#/sessions/" + parent);
		waitFor(By.cssSelector(".session-lineage .lineage-forks"));
		assertThat(linkedSessions(".lineage-forks")).containsExactly(first, second);
		assertThat(text(".lineage-forks")).endsWith("and 1 fork of those");
		assertThat(this.driver.findElements(By.cssSelector(".lineage-parent"))).isEmpty();

		click(By.cssSelector(".lineage-forks a[data-session-id='" + first + "']"));
		waitUntil(() -> this.driver.getCurrentUrl().contains("#/sessions/" + first)); // then the entry under the cursor
		waitFor(By.cssSelector(".lineage-parent a[data-session-id='" + parent + "']"));
		assertThat(text(".lineage-parent")).isEqualTo("Forked from Lineage parent " + parent.substring(0, 8));
		assertThat(linkedSessions(".lineage-forks")).containsExactly(grandchild);
		Screenshots.save(this.driver, "explorer-lineage");
		click(By.cssSelector(".lineage-parent a"));
		waitUntil(() -> this.driver.getCurrentUrl().contains("#/sessions/" + parent));
		waitFor(By.cssSelector(".session-lineage .lineage-forks"));

		// the header names a session that is not stored: said, and not a link that leads nowhere
		String missing = "019a0000-dead-7000-8000-000000000000";
		String orphan = this.api.createForkedFrom("Lineage orphan", missing);
		open("/#/sessions/" + orphan);
		waitFor(By.cssSelector(".lineage-parent.missing"));
		assertThat(text(".lineage-parent.missing")).isEqualTo("Forked from a session that is not here: " + missing);
		assertThat(this.driver.findElements(By.cssSelector(".session-lineage a"))).isEmpty();
	}

	private List<String> sessionIds() {
		return this.driver.findElements(By.cssSelector("li.session"))
			.stream()
			.map((item) -> item.getAttribute("data-session-id"))
			.toList();
	}

	private WebElement row(String sessionId) {
		return waitFor(By.cssSelector("li.session[data-session-id='" + sessionId + "']"));
	}

	private String cell(String sessionId, String css) {
		return row(sessionId).findElement(By.cssSelector(css)).getText();
	}

	private List<WebElement> hits() {
		return this.driver.findElements(By.cssSelector(".search-hits li.search-hit"));
	}

	private List<String> linkedSessions(String css) {
		return this.driver.findElements(By.cssSelector(css + " a"))
			.stream()
			.map((link) -> link.getAttribute("data-session-id"))
			.toList();
	}

	private Object script(String script) {
		return ((JavascriptExecutor) this.driver).executeScript(script);
	}

}
