package dev.arbor.web;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import dev.arbor.events.BranchPreparation;
import dev.arbor.events.HookAnswer;
import dev.arbor.events.SessionHook;
import dev.arbor.events.TreePreparation;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** An in-process hook whose answers a test sets, and which records what it was asked. */
final class ScriptedHook implements SessionHook {

	/** Registers one as a bean: {@code @Import(ScriptedHook.Registered.class)}. */
	@TestConfiguration(proxyBeanMethods = false)
	static class Registered {

		@Bean
		ScriptedHook scriptedHook() {
			return new ScriptedHook();
		}

	}

	final List<TreePreparation> treeCalls = new CopyOnWriteArrayList<>();

	final List<BranchPreparation> branchCalls = new CopyOnWriteArrayList<>();

	volatile Function<TreePreparation, HookAnswer> onTree = preparation -> HookAnswer.NONE;

	volatile Function<BranchPreparation, HookAnswer> onBranch = preparation -> HookAnswer.NONE;

	void reset() {
		this.treeCalls.clear();
		this.branchCalls.clear();
		this.onTree = preparation -> HookAnswer.NONE;
		this.onBranch = preparation -> HookAnswer.NONE;
	}

	@Override
	public String name() {
		return "scripted";
	}

	@Override
	public HookAnswer beforeTree(TreePreparation preparation) {
		this.treeCalls.add(preparation);
		return this.onTree.apply(preparation);
	}

	@Override
	public HookAnswer beforeBranch(BranchPreparation preparation) {
		this.branchCalls.add(preparation);
		return this.onBranch.apply(preparation);
	}

}
