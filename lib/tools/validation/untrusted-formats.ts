import { loadAjvFormatDefinitions } from '../../runtime/lazy-require';
import { compileUntrustedPattern } from './compile-untrusted-pattern';

type FormatDefinition =
  RegExp | ((value: string) => boolean) | { validate: RegExp | ((value: string) => boolean) };

/** ajv-formats' `url` IPv4 host without its look-aheads: 1-223 first octet, private ranges left out. */
const PUBLIC_IPV4 = (() => {
  const octet = '(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])';
  const last = '(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4])';
  const tail = (second: string): string => `\\.${second}\\.${octet}\\.${last}`;
  const first =
    '(?:[1-9]|1[1-9]|[2-9]\\d|1(?:[01]\\d|2[0-689]|[3-5]\\d|6[0-8]|7[013-9]|8\\d|9[013-9])|2[01]\\d|22[0-3])';
  return [
    `${first}${tail(octet)}`,
    `169${tail('(?:\\d{1,2}|1\\d\\d|2[0-4]\\d|25[0-35])')}`,
    `192${tail('(?:\\d{1,2}|1(?:[0-57-9]\\d|6[0-79])|2[0-4]\\d|25[0-5])')}`,
    `172${tail('(?:\\d|0\\d|1[0-5]|3[2-9]|[4-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])')}`,
  ].join('|');
})();

const HOST_CHAR = '[a-z0-9\\u{00a1}-\\u{ffff}]';
const HOST_LABEL = `(?:${HOST_CHAR}+-)*${HOST_CHAR}+`;

/** Same language as ajv-formats' fast `url`, whose `\S+(?::\S*)?@` backtracks quadratically natively. */
const URL_PATTERN =
  `(?i)^(?:https?|ftp)://(?:\\S+(?::\\S*)?@)?(?:${PUBLIC_IPV4}|${HOST_LABEL}(?:\\.${HOST_LABEL})*` +
  `(?:\\.[a-z\\u{00a1}-\\u{ffff}]{2,}))(?::\\d{2,5})?(?:/\\S*)?$`;
/** ajv-formats' fast `hostname` after its `(?=.{1,253}\.?$)` length look-ahead. */
const HOSTNAME_PATTERN =
  '(?i)^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$';
/** ajv-formats' fast `duration` with `T(?=\d)` written as "T and at least one part". */
const DURATION_PATTERN =
  '^P(?:(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S))?|\\d+W)$';

/** Formats whose ajv-formats expression has look-arounds: equivalent linear definitions. */
const REWRITTEN: Record<string, (value: string) => boolean> = {
  url: (value) => compileUntrustedPattern(URL_PATTERN).test(value),
  hostname: (value) => {
    const length = value.endsWith('.') ? value.length - 1 : value.length;
    return length >= 1 && length <= 253 && compileUntrustedPattern(HOSTNAME_PATTERN).test(value);
  },
  duration: (value) => value !== 'P' && compileUntrustedPattern(DURATION_PATTERN).test(value),
};

let untrustedFormats: Readonly<Record<string, (value: string) => boolean>> | undefined;

/**
 * The string formats of ajv-formats ("fast" mode) for untrusted schemas, every one linear in the length of
 * the value: regular-expression formats run in the linear-time engine (the `i` flag as `(?i)`), and `url`,
 * `hostname` and `duration`, whose expressions use look-arounds, have equivalent linear definitions (the
 * native `url` expression takes about half a second on 10,000 characters and grows quadratically).
 * Function formats (`regex`, `byte`, numbers) are linear already and kept.
 */
export function getUntrustedFormats(): Readonly<Record<string, (value: string) => boolean>> {
  if (untrustedFormats) return untrustedFormats;
  const formats: Record<string, (value: string) => boolean> = {};
  const { fastFormats } = loadAjvFormatDefinitions();
  for (const [name, definition] of Object.entries(fastFormats as Record<string, FormatDefinition>)) {
    const validate =
      definition instanceof RegExp || typeof definition === 'function' ? definition : definition.validate;
    if (REWRITTEN[name]) formats[name] = REWRITTEN[name];
    else if (typeof validate === 'function') formats[name] = validate;
    else if (validate instanceof RegExp) {
      const matcher = compileUntrustedPattern(
        `${validate.flags.includes('i') ? '(?i)' : ''}${validate.source}`,
      );
      formats[name] = (value) => matcher.test(value);
    }
  }
  untrustedFormats = Object.freeze(formats);
  return untrustedFormats;
}
