import { redactUrl } from './redact-url';

/** Flag names whose value is masked: they name a credential. */
const SECRET_FLAG = /^-{1,2}[\w.-]*(?:token|key|secret|password|passwd|credential|auth)[\w.-]*$/i;
/** URLs inside an argument (`postgres://user:pw@db/x`, `--db=https://…?key=…`). */
const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>]+/g;

/**
 * The arguments of a stdio server command as they may be shown in metadata and serialized agents: URLs lose
 * their user info and their query values, and the value of a flag whose name contains token, key, secret,
 * password, credential or auth is replaced by `redacted`, whether it follows the flag (`--api-key X`) or is
 * joined to it (`--token=X`). The arguments given to the process itself are never changed.
 */
export function redactCommandArgs(args: readonly string[]): string[] {
  const redacted: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    const equals = arg.indexOf('=');
    if (arg.startsWith('-') && equals > 0 && SECRET_FLAG.test(arg.slice(0, equals))) {
      redacted.push(`${arg.slice(0, equals)}=redacted`);
      continue;
    }
    redacted.push(redactUrlsIn(arg));
    const next = args[index + 1];
    if (SECRET_FLAG.test(arg) && next !== undefined && !next.startsWith('-')) {
      redacted.push('redacted');
      index += 1;
    }
  }
  return redacted;
}

function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    try {
      return redactUrl(new URL(found));
    } catch {
      return found.replace(/\/\/[^/@\s]*@/, '//');
    }
  });
}
