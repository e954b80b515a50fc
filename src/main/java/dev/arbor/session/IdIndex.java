package dev.arbor.session;

import java.util.function.IntFunction;

/**
 * Entry id → position in file order, open addressing over an {@code int[]}: about 8 bytes an entry
 * where a {@code HashMap<String, Integer>} costs about 50. Keys are the entries' own ids, compared
 * without making strings of hex ids. Later puts of the same id win (duplicate ids: the later entry
 * wins for lookups, docs/SESSION-FORMAT.md §11). Not thread-safe.
 */
final class IdIndex {

	private static final int EMPTY = 0;

	private final IntFunction<EntryLine> entryAt;

	private int[] slots;

	private int size;

	/** @param entryAt the entry at a position; its id is the key, never stored twice */
	IdIndex(IntFunction<EntryLine> entryAt, int expected) {
		this.entryAt = entryAt;
		this.slots = new int[tableSize(expected)];
	}

	/** Position of the entry with this id, or -1. */
	int get(String id) {
		long hex = HexIds.parse(id);
		if (hex != HexIds.NOT_HEX) {
			return getHex((int) hex);
		}
		int mask = this.slots.length - 1;
		for (int i = spread(id.hashCode()) & mask;; i = (i + 1) & mask) {
			int slot = this.slots[i];
			if (slot == EMPTY || this.entryAt.apply(slot - 1).hasId(id)) {
				return slot - 1;
			}
		}
	}

	/** Position of the entry whose id is these 8 hex digits, or -1. */
	int getHex(int value) {
		int mask = this.slots.length - 1;
		for (int i = spread(HexIds.hash(value)) & mask;; i = (i + 1) & mask) {
			int slot = this.slots[i];
			if (slot == EMPTY || this.entryAt.apply(slot - 1).hasHexId(value)) {
				return slot - 1;
			}
		}
	}

	/** Position of the entry that lookups by this entry's id find, or -1. */
	int get(EntryLine entry) {
		return entry.isHexId() ? getHex(entry.hexId()) : get(entry.id());
	}

	/** Position of the entry's parent, or -1 when it has none or names no entry. */
	int getParent(EntryLine entry) {
		if (entry.hasHexParent()) {
			return getHex(entry.hexParentId());
		}
		String parentId = entry.textParentId();
		return (parentId != null) ? get(parentId) : -1;
	}

	/** Maps the entry's id to its position, replacing an earlier entry with the same id. */
	void put(EntryLine entry, int position) {
		if ((this.size + 1) * 2 > this.slots.length) {
			rehash(this.slots.length * 2);
		}
		int mask = this.slots.length - 1;
		for (int i = spread(entry.idHash()) & mask;; i = (i + 1) & mask) {
			int slot = this.slots[i];
			if (slot == EMPTY) {
				this.slots[i] = position + 1;
				this.size++;
				return;
			}
			if (this.entryAt.apply(slot - 1).hasSameId(entry)) {
				this.slots[i] = position + 1;
				return;
			}
		}
	}

	int size() {
		return this.size;
	}

	private void rehash(int newLength) {
		int[] old = this.slots;
		this.slots = new int[newLength];
		int mask = newLength - 1;
		for (int slot : old) {
			if (slot != EMPTY) {
				int i = spread(this.entryAt.apply(slot - 1).idHash()) & mask;
				while (this.slots[i] != EMPTY) {
					i = (i + 1) & mask;
				}
				this.slots[i] = slot;
			}
		}
	}

	private static int tableSize(int expected) {
		int size = 16;
		while (size < expected * 2) {
			size <<= 1;
		}
		return size;
	}

	private static int spread(int hash) {
		return hash ^ (hash >>> 16);
	}

	@Override
	public String toString() {
		return "IdIndex[size=" + this.size + ", table=" + this.slots.length + "]";
	}

}
