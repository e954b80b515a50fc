package dev.arbor;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Dependencies point inward, toward {@code session} (docs/ARCHITECTURE.md#packages). */
@AnalyzeClasses(packages = "dev.arbor", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTests {

	@ArchTest
	static final ArchRule sessionStaysPure = noClasses().that()
		.resideInAPackage("dev.arbor.session..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("org.springframework..", "java.nio.file..", "java.nio.channels..", "dev.arbor.storage..", "dev.arbor.operations..", "dev.arbor.events..", "dev.arbor.summary..",
				"dev.arbor.web..", "dev.arbor.config..", "dev.arbor.copy..")
		.allowEmptyShould(true);

	@ArchTest
	static final ArchRule sessionOpensNoFiles = noClasses().that()
		.resideInAPackage("dev.arbor.session..")
		.should()
		.dependOnClassesThat(resideInAPackage("java.io")
			.and(simpleNameStartingWith("File").or(simpleNameStartingWith("RandomAccessFile"))));

	@ArchTest
	static final ArchRule storageKnowsOnlyTheSession = noClasses().that()
		.resideInAPackage("dev.arbor.storage..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.arbor.operations..", "dev.arbor.summary..", "dev.arbor.web..", "dev.arbor.config..",
				"dev.arbor.copy..")
		.allowEmptyShould(true);

	/**
	 * Events are the business of the events package; the PostgreSQL store alone implements its bus, since that bus
	 * keeps the events in the store's own database.
	 */
	@ArchTest
	static final ArchRule onlyThePostgresStoreKnowsTheEvents = noClasses().that()
		.resideInAPackage("dev.arbor.storage..")
		.and()
		.resideOutsideOfPackage("dev.arbor.storage.postgres..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("dev.arbor.events..");

	/** The events package works with any store: nothing in it reads a database or a store's own classes. */
	@ArchTest
	static final ArchRule eventsKnowNoStoreMedium = noClasses().that()
		.resideInAPackage("dev.arbor.events..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.arbor.storage.file..", "dev.arbor.storage.postgres..", "org.springframework.jdbc..",
				"org.springframework.transaction..", "java.sql..", "javax.sql..", "org.postgresql..");

	/** The edge stands before the API and knows nothing behind it: not the controllers, nor what they call. */
	@ArchTest
	static final ArchRule theEdgeKnowsNothingBehindIt = noClasses().that()
		.resideInAPackage("dev.arbor.web.edge..")
		.should()
		.dependOnClassesThat(resideInAPackage("dev.arbor..").and(not(resideInAnyPackage("dev.arbor.web.edge..",
				"dev.arbor.session..", "dev.arbor.config.."))));

	/** Of Spring, a store may use its database access (the PostgreSQL store), nothing else. */
	@ArchTest
	static final ArchRule storesUseOnlySpringsDatabaseAccess = noClasses().that()
		.resideInAPackage("dev.arbor.storage..")
		.should()
		.dependOnClassesThat(resideInAPackage("org.springframework..")
			.and(not(resideInAnyPackage("org.springframework.jdbc..", "org.springframework.transaction..",
					"org.springframework.dao.."))));

	/** Only the PostgreSQL store talks to a database. */
	@ArchTest
	static final ArchRule onlyThePostgresStoreTalksToTheDatabase = noClasses().that()
		.resideInAPackage("dev.arbor.storage..")
		.and()
		.resideOutsideOfPackage("dev.arbor.storage.postgres..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("org.springframework.jdbc..", "org.springframework.transaction..", "java.sql..",
				"javax.sql..", "org.postgresql..");

	@ArchTest
	static final ArchRule operationsKnowNothingOfHttp = noClasses().that()
		.resideInAPackage("dev.arbor.operations..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.arbor.web..", "dev.arbor.config..", "dev.arbor.copy..", "org.springframework.web..",
				"org.springframework.http..", "jakarta.servlet..");

	@ArchTest
	static final ArchRule eventsKnowNoCaller = noClasses().that()
		.resideInAPackage("dev.arbor.events..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.arbor.operations..", "dev.arbor.summary..", "dev.arbor.web..", "dev.arbor.config..",
				"dev.arbor.copy..");

	@ArchTest
	static final ArchRule summariesKnowNoCaller = noClasses().that()
		.resideInAPackage("dev.arbor.summary..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.arbor.operations..", "dev.arbor.events..", "dev.arbor.web..", "dev.arbor.config..",
				"dev.arbor.copy..");

	/** The copy command is an entry point beside the server: only the jar's main starts it. */
	@ArchTest
	static final ArchRule onlyTheMainStartsTheCopy = noClasses().that()
		.resideOutsideOfPackage("dev.arbor.copy..")
		.and()
		.doNotHaveFullyQualifiedName("dev.arbor.ArborApplication")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("dev.arbor.copy..");

	/** The copy works on the stores alone: not through the services, the HTTP API or the summaries. */
	@ArchTest
	static final ArchRule copyWorksOnTheStores = noClasses().that()
		.resideInAPackage("dev.arbor.copy..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.arbor.operations..", "dev.arbor.web..", "dev.arbor.summary..");

	/** Models are the summary package's business: nothing else talks to Spring AI or a provider's HTTP client. */
	@ArchTest
	static final ArchRule onlySummariesTalkToModels = noClasses().that()
		.resideOutsideOfPackages("dev.arbor.summary..", "dev.arbor.config..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("org.springframework.ai..", "okhttp3..", "com.openai..", "com.anthropic..");

}
