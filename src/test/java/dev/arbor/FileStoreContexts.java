package dev.arbor;

import dev.arbor.storage.file.FileSessionStore;
import org.springframework.core.Ordered;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Closes every application context with a file store after its test class. Its storage folder is the class's
 * temporary folder, which JUnit deletes right after; a context left in Spring's cache would go on answering the
 * folder's changes (the search index under {@code .arbor/search} writes for each session that goes), and the folder's
 * deletion fails. Such a context is never used again anyway: each class's folder makes its properties its own.
 * Registered in {@code META-INF/spring.factories}, so that no test class can forget it.
 */
public class FileStoreContexts implements TestExecutionListener, Ordered {

	@Override
	public void afterTestClass(TestContext testContext) {
		if (testContext.hasApplicationContext()
				&& testContext.getApplicationContext().getBeanNamesForType(FileSessionStore.class).length > 0) {
			testContext.markApplicationContextDirty(DirtiesContext.HierarchyMode.EXHAUSTIVE);
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
