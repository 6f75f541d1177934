import { SERVER_TYPE, SERVER_VERSION, SUBSONIC_API_VERSION } from '../../core/library/envelope.ts';
import type { SubsonicPayload } from './method.ts';

export type SubsonicFormat = 'xml' | 'json' | 'jsonp';

/** The root members every response carries (library/envelope.ts holds the values both doors share). */
function root(status: 'ok' | 'failed') {
  return { status, version: SUBSONIC_API_VERSION, type: SERVER_TYPE, serverVersion: SERVER_VERSION, openSubsonic: true };
}

export function okDocument(payload: SubsonicPayload): SubsonicPayload {
  return { ...root('ok'), ...payload };
}

export function failedDocument(code: number, message: string): SubsonicPayload {
  return { ...root('failed'), error: { code, message } };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text and attribute values; characters XML 1.0 forbids outright are dropped. */
export function xmlEscape(value: string): string {
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/**
 * A member that Subsonic's XML writes as a child element holding text rather than as an attribute
 * (artistInfo's `biography`, `musicBrainzId`, image URLs…); JSON writes it as a plain string.
 */
export class TextElement {
  constructor(readonly text: string) {}

  toJSON(): string {
    return this.text;
  }
}

/** A text element for a value that is known, nothing otherwise (an absent member is left out of both formats). */
export const textElement = (text: string | null | undefined): TextElement | undefined => (text ? new TextElement(text) : undefined);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** One element: primitive members become attributes, objects child elements, arrays repeated children, `value` the text. */
function xmlElement(name: string, members: Record<string, unknown>): string {
  let attributes = '';
  let children = '';
  let text = '';
  for (const [key, value] of Object.entries(members)) {
    if (value === undefined || value === null) continue;
    if (key === 'value' && !isObject(value) && !Array.isArray(value)) text = xmlEscape(String(value));
    else if (value instanceof TextElement) children += `<${key}>${xmlEscape(value.text)}</${key}>`;
    else if (Array.isArray(value)) children += value.map((item) => xmlChild(key, item)).join('');
    else if (isObject(value)) children += xmlElement(key, value);
    else attributes += ` ${key}="${xmlEscape(String(value))}"`;
  }
  const body = text + children;
  return body ? `<${name}${attributes}>${body}</${name}>` : `<${name}${attributes}/>`;
}

/** An array item: an object is an element; a primitive (e.g. an `ignoredArticles` list) is an element's text. */
function xmlChild(name: string, item: unknown): string {
  return isObject(item) ? xmlElement(name, item) : `<${name}>${xmlEscape(String(item))}</${name}>`;
}

export function toXml(document: SubsonicPayload): string {
  const element = xmlElement('subsonic-response', document);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element.replace('<subsonic-response', '<subsonic-response xmlns="http://subsonic.org/restapi"')}`;
}

/** A JSONP callback must be a plain (dotted) identifier: anything else could inject script. */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

export function isValidCallback(callback: string | undefined): callback is string {
  return callback !== undefined && callback.length <= 100 && CALLBACK.test(callback);
}

/** The body and content type of a document in the requested format. */
export function render(document: SubsonicPayload, format: SubsonicFormat, callback?: string): { contentType: string; body: string } {
  if (format === 'xml') return { contentType: 'application/xml; charset=utf-8', body: toXml(document) };
  const json = JSON.stringify({ 'subsonic-response': document });
  if (format === 'jsonp') return { contentType: 'application/javascript; charset=utf-8', body: `${callback}(${json});` };
  return { contentType: 'application/json; charset=utf-8', body: json };
}
