package dev.arbor.storage.postgres;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.arbor.storage.NavigationLease;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An abort asked of replica B for a navigation that holds its session on replica A (docs/API.md#navigation): it
 * takes only while A has not committed to apply the navigation's result, and B's answer says which.
 */
@RequiresPostgres
class NavigationLeasesTests {

	StoreDatabase database;

	PostgresSessionStore a;

	PostgresSessionStore b;

	String sessionId;

	@BeforeEach
	void replicas() {
		this.database = new StoreDatabase();
		this.a = this.database.store();
		this.b = this.database.store();
		this.sessionId = this.a.create("/work", "navigated", null).id();
	}

	@AfterEach
	void close() throws Exception {
		this.database.close();
	}

	@Test
	void abortNavigationWhenTheNavigationHasNotCommittedShouldTakeAndStopIt() throws Exception {
		try (NavigationLease lease = this.a.holdForNavigation(this.sessionId, "nav-1", new CompletableFuture<>())) {
			assertThat(this.b.abortNavigation(this.sessionId, "nav-1")).isTrue();
			lease.aborted().get(10, TimeUnit.SECONDS);
			assertThat(lease.commit()).as("the navigation may no longer apply").isFalse();
		}
	}

	@Test
	void abortNavigationWhenTheNavigationCommittedShouldBeTooLate() {
		try (NavigationLease lease = this.a.holdForNavigation(this.sessionId, "nav-1", new CompletableFuture<>())) {
			assertThat(lease.commit()).isTrue();
			assertThat(this.b.abortNavigation(this.sessionId, "nav-1")).isFalse();
			assertThat(lease.aborted()).isNotDone();
		}
	}

	@Test
	void abortNavigationWhenNoNavigationRunsUnderTheIdShouldFindNone() {
		assertThat(this.b.abortNavigation(this.sessionId, "nav-1")).isFalse();
		try (NavigationLease lease = this.a.holdForNavigation(this.sessionId, "nav-1", new CompletableFuture<>())) {
			assertThat(this.b.abortNavigation(this.sessionId, "nav-2")).as("another id").isFalse();
		}
		assertThat(this.b.abortNavigation(this.sessionId, "nav-1")).as("after it ended").isFalse();
		try (NavigationLease lease = this.a.holdForNavigation(this.sessionId, "nav-3", new CompletableFuture<>())) {
			assertThat(this.b.abortNavigation(this.sessionId, "nav-3"))
				.as("the next navigation starts with neither an abort nor applying")
				.isTrue();
		}
	}

}
