/**
 * HOST-17: "an array of language names in English" (2.4 item 3), judged fairly. An English name
 * may carry letters outside ASCII, parentheses and qualifiers ("Norwegian Bokmål", "Māori",
 * "Serbian (Latin)", "Brazilian Portuguese"). Only what is clearly not an English name fails: a
 * language code or tag ("de", "pt-BR", "zh_Hant", "EN"), or a native name that differs from the
 * language's English name ("Deutsch", "Español", "日本語"). What the harness cannot tell (a name
 * in neither list) is a warning, never a failure.
 */

import { ENGLISH_NAMES, NATIVE_NAMES } from './language-names.ts';

/**
 * A language code or tag: lowercase ISO 639 ("de", "deu"), two or three capitals ("EN"), or a tag
 * with subtags ("pt-BR", "zh_Hant").
 */
const CODE_OR_TAG = /^(?:[a-z]{2,3}|[A-Z]{2,3}|[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})+)$/;

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

export type LanguageVerdict =
  { kind: 'english' } | { kind: 'not-english'; why: string } | { kind: 'unknown'; why: string };

export function judgeLanguageName(value: unknown): LanguageVerdict {
  if (typeof value !== 'string' || value.trim() === '')
    return { kind: 'not-english', why: `${JSON.stringify(value)} is not a non-empty string` };
  const text = value.trim();
  const p = plain(text);
  if (ENGLISH_NAMES.has(p)) return { kind: 'english' };
  if (CODE_OR_TAG.test(text))
    return { kind: 'not-english', why: `${JSON.stringify(text)} is a language code or tag, not a name` };
  const native = NATIVE_NAMES.get(p) ?? NATIVE_NAMES.get(text.toLowerCase());
  if (native !== undefined)
    return {
      kind: 'not-english',
      why: `${JSON.stringify(text)} is the native name of ${native}, not its English name`,
    };
  // A qualified name ("Brazilian Portuguese", "Serbian (Latin)", "Norwegian Bokmål"): an English name among its words.
  const words = p
    .replace(/[()[\],]/g, ' ')
    .split(' ')
    .filter(Boolean);
  for (let n = 1; n <= 3; n++) {
    for (let i = 0; i + n <= words.length; i++)
      if (ENGLISH_NAMES.has(words.slice(i, i + n).join(' '))) return { kind: 'english' };
  }
  return {
    kind: 'unknown',
    why: `${JSON.stringify(text)} is in neither the harness's list of English language names nor its list of native names`,
  };
}
