import type { FastifyReply } from 'fastify';
import type { LastfmError } from './errors.ts';

type Scalar = string | number;

/**
 * One response shape rendered two ways: as Last.fm's XML, and as the JSON Last.fm derives
 * from it (attributes of a leaf sit beside `#text`, those of a parent under `@attr`,
 * repeated children become an array).
 */
export interface Element {
  name: string;
  attributes?: Record<string, Scalar> | undefined;
  text?: Scalar | undefined;
  children?: Element[] | undefined;
  /** Children Last.fm's JSON always gives as an array, even of one or none (`track`, `image`, `tag`). */
  arrays?: readonly string[] | undefined;
}

export function element(name: string, content: Scalar | Element[] = '', attributes?: Record<string, Scalar>): Element {
  return Array.isArray(content) ? { name, children: content, attributes } : { name, text: content, attributes };
}

/** A list such as `<recenttracks>` of `<track>`s: in JSON, `items` are an array under `itemName` whatever their number. */
export function list(name: string, itemName: string, items: Element[], attributes?: Record<string, Scalar>): Element {
  return { name, children: items, attributes, arrays: [itemName] };
}

export type ResponseFormat = 'xml' | 'json';

// XML 1.0 cannot carry most control characters at all, even escaped.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(value: Scalar): string {
  return String(value)
    .replace(INVALID_XML_CHARS, '')
    .replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

function xmlAttributes(attributes: Element['attributes']): string {
  return Object.entries(attributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
}

function toXml(node: Element): string {
  const inner = node.children ? node.children.map(toXml).join('') : escapeXml(node.text ?? '');
  return `<${node.name}${xmlAttributes(node.attributes)}>${inner}</${node.name}>`;
}

function toJson(node: Element): unknown {
  if (!node.children) return node.attributes ? { ...node.attributes, '#text': node.text ?? '' } : (node.text ?? '');
  const members: Record<string, unknown> = Object.fromEntries((node.arrays ?? []).map((name) => [name, []]));
  for (const child of node.children) {
    const value = toJson(child);
    const existing = members[child.name];
    members[child.name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return node.attributes ? { ...members, '@attr': node.attributes } : members;
}

/** The XML document of a response; `body` null is a bare `<lfm status="ok"></lfm>`. */
export function xmlDocument(status: 'ok' | 'failed', body: Element | null): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<lfm status="${status}">${body ? toXml(body) : ''}</lfm>\n`;
}

/** The JSON of a successful response; `body` null is `{}`. */
export function jsonDocument(body: Element | null): Record<string, unknown> {
  return body ? { [body.name]: toJson(body) } : {};
}

export function sendResult(reply: FastifyReply, format: ResponseFormat, body: Element | null): FastifyReply {
  if (format === 'json') return reply.type('application/json; charset=utf-8').send(jsonDocument(body));
  return reply.type('text/xml; charset=utf-8').send(xmlDocument('ok', body));
}

export function sendError(reply: FastifyReply, format: ResponseFormat, error: LastfmError): FastifyReply {
  reply.status(error.status);
  if (format === 'json') return reply.type('application/json; charset=utf-8').send({ error: error.code, message: error.message });
  return reply.type('text/xml; charset=utf-8').send(xmlDocument('failed', element('error', error.message, { code: error.code })));
}
