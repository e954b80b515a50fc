// Renders entries and context messages readably: text as text, thinking, tool calls and tool results collapsed
// under their names, images as images. Everything from the session goes into text nodes (dom.js), never markup.
import { h } from './dom.js';

/** Image types shown inline; anything else an entry calls an image is listed, not decoded by the browser. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A stored entry: what it is, then its content. */
export function renderEntry(entry) {
	const message = entry.message;
	const body = (entry.type === 'message' && message && typeof message === 'object')
		? renderMessage(message) : renderOther(entry);
	return h('article', { className: `entry entry-${kind(entry)}` }, body,
		h('details', { className: 'raw' }, h('summary', {}, 'Stored line'), h('pre', {}, JSON.stringify(entry, null, 2))));
}

/** A message of an entry or of the model context ({role, content, …}). */
export function renderMessage(message) {
	const role = String(message.role ?? 'message');
	const parts = [h('header', { className: 'role' }, roleName(message))];
	if (role === 'toolResult') {
		parts.push(h('details', { className: message.isError ? 'tool-result error' : 'tool-result' },
			h('summary', {}, `Result of ${message.toolName ?? 'a tool'}${message.isError ? ' (error)' : ''}`), blocks(message.content)));
	} else if (role === 'bashExecution') {
		parts.push(h('details', { className: 'tool-result' }, h('summary', {}, `$ ${message.command ?? ''}`),
			h('pre', {}, String(message.output ?? '')), message.exitCode != null ? h('p', { className: 'muted' }, `exit code ${message.exitCode}`) : null));
	} else if (message.summary !== undefined) {
		parts.push(h('div', { className: 'text' }, String(message.summary)));
	} else {
		parts.push(blocks(message.content));
	}
	return parts;
}

function roleName(message) {
	if (message.role === 'assistant' && message.model) {
		return `assistant · ${message.model}`;
	}
	return String(message.role);
}

function blocks(content) {
	if (content === undefined || content === null) {
		return null;
	}
	if (!Array.isArray(content)) {
		return h('div', { className: 'text' }, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
	}
	return content.map(block);
}

function block(part) {
	switch (part?.type) {
		case 'text':
			return h('div', { className: 'text' }, String(part.text ?? ''));
		case 'thinking':
			return h('details', { className: 'thinking' }, h('summary', {}, 'Thinking'), h('div', { className: 'text' }, String(part.thinking ?? '')));
		case 'toolCall':
			return h('details', { className: 'tool-call' }, h('summary', {}, `Tool call: ${part.name ?? '?'}`),
				h('pre', {}, JSON.stringify(part.arguments ?? {}, null, 2)));
		case 'image':
			return image(part);
		default:
			return h('pre', {}, JSON.stringify(part, null, 2));
	}
}

function image(part) {
	const type = String(part.mimeType ?? '');
	if (!IMAGE_TYPES.has(type) || typeof part.data !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(part.data)) {
		return h('p', { className: 'muted' }, `An image (${type || 'unknown type'}) that is not shown`);
	}
	return h('img', { className: 'image', src: `data:${type};base64,${part.data.replace(/\s/g, '')}`, alt: 'An image in the message' });
}

/** Entries other than messages: what changed, in a sentence, and the text they carry. */
function renderOther(entry) {
	switch (entry.type) {
		case 'model_change':
			return h('p', {}, `Model changed to ${entry.model ?? [entry.provider, entry.modelId].filter(Boolean).join('/')}`);
		case 'thinking_level_change':
			return h('p', {}, `Thinking level changed to ${entry.thinkingLevel}`);
		case 'label':
			return h('p', {}, entry.label ? `Label “${entry.label}” set on ${entry.targetId}` : `Label cleared on ${entry.targetId}`);
		case 'branch_summary':
		case 'compaction':
			return [h('header', { className: 'role' }, entry.type === 'compaction' ? 'Compaction summary' : `Summary of the branch left at ${entry.fromId ?? 'the start'}`),
				h('div', { className: 'text' }, String(entry.summary ?? ''))];
		case 'custom_message':
			return [h('header', { className: 'role' }, `custom message · ${entry.customType ?? ''}`), blocks(entry.content)];
		default:
			return h('p', { className: 'muted' }, `A ${entry.type} entry`);
	}
}

function kind(entry) {
	return entry.type === 'message' ? String(entry.message?.role ?? 'message') : String(entry.type);
}

/** A one-line preview of an entry, for lists of children and paths. */
export function preview(entry) {
	const message = entry.message;
	let text = '';
	if (message && typeof message === 'object') {
		const content = message.content;
		text = typeof content === 'string' ? content
			: Array.isArray(content) ? content.map((part) => part.text ?? part.thinking ?? (part.name ? `[${part.name}]` : '')).join(' ')
			: String(message.summary ?? message.command ?? '');
		return `${message.role}: ${text}`.replace(/\s+/g, ' ').slice(0, 160);
	}
	return `${entry.type}${entry.summary ? `: ${entry.summary}` : entry.label !== undefined ? `: ${entry.label ?? '(cleared)'}` : ''}`.replace(/\s+/g, ' ').slice(0, 160);
}
