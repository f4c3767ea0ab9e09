import { spawn } from 'node:child_process';
import { win32 } from 'node:path';

/** A program to start, with its argv: never run through a shell. */
export interface BrowserOpenCommand {
  /** The program (an absolute path where it has a fixed place). */
  readonly command: string;
  /** Its arguments; the URL is always exactly one of them. */
  readonly args: readonly string[];
}

/** Why a URL is not opened automatically (it is still shown for the user to copy). */
export interface BrowserOpenRefusal {
  /** A short reason, e.g. `not opening a non-https URL automatically (smb:)`. */
  readonly refused: string;
}

/** Options of {@link openInBrowser}. */
export interface OpenInBrowserOptions {
  /** The platform to open on (default `process.platform`). */
  platform?: NodeJS.Platform;
  /** The environment: where the display and the opener are found, and the opener's environment (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Called when the opener cannot be started (e.g. it is not installed); the URL was shown anyway. */
  onFailure?: (error: Error) => void;
}

// RFC 3986's unreserved, reserved and '%' characters: nothing a command line, a shell or an opener could
// read as a separator, a quote or an escape.
const URL_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/**
 * The program and argv that open `url` in the user's browser on `platform`, or why it is not opened: only
 * `https:` URLs are (and `http:` ones on a loopback host: 127.0.0.0/8, [::1], localhost), re-serialized from
 * the parsed URL, and none through a shell.
 */
export function toBrowserOpenCommand(
  url: string | URL,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): BrowserOpenCommand | BrowserOpenRefusal {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return { refused: 'it is not a valid URL' };
  }
  if (parsed.protocol === 'http:') {
    if (!isLoopbackHost(parsed.hostname)) {
      return {
        refused: `not opening an http URL of a host other than this machine automatically (${parsed.host})`,
      };
    }
  } else if (parsed.protocol !== 'https:') {
    return { refused: `not opening a non-https URL automatically (${parsed.protocol})` };
  }
  // The serializer percent-encodes spaces, quotes and controls in the path, query and fragment, but keeps
  // some of them in a host: what is left outside RFC 3986 is refused rather than handed to an opener.
  const href = parsed.href;
  if (!URL_CHARACTERS.test(href)) {
    return {
      refused:
        'not opening a URL with characters a URL does not need (quotes, spaces, |, ^, `) automatically',
    };
  }
  if (platform === 'win32') {
    // `cmd /c start` re-parses its command line (`&` runs a second program, and cuts every real URL short).
    // rundll32 hands the rest of its command line, unparsed, to url.dll's FileProtocolHandler, which gives it
    // to ShellExecute as one URL: no cmd.exe, and no comma or `/` switch parsing as explorer.exe does. Node
    // quotes an argv element only when it holds a space, a tab or a quote, which `href` cannot. The absolute
    // path keeps a rundll32.exe in the working directory or on the PATH from being started instead.
    const systemRoot =
      [env.SystemRoot, env.windir].find((path) => path && win32.isAbsolute(path)) ?? 'C:\\Windows';
    return {
      command: win32.join(systemRoot, 'System32', 'rundll32.exe'),
      args: ['url.dll,FileProtocolHandler', href],
    };
  }
  if (platform === 'darwin') return { command: '/usr/bin/open', args: [href] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { refused: 'there is no graphical display to open it on (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  return { command: 'xdg-open', args: [href] };
}

/**
 * Opens `url` in the user's browser when {@link toBrowserOpenCommand} allows it (never through a shell), and
 * returns what it started or why it did not; failing to start the opener is not an error (`onFailure` hears
 * of it).
 */
export function openInBrowser(
  url: string | URL,
  options: OpenInBrowserOptions = {},
): BrowserOpenCommand | BrowserOpenRefusal {
  const env = options.env ?? process.env;
  const plan = toBrowserOpenCommand(url, options.platform ?? process.platform, env);
  if ('refused' in plan) return plan;
  const fail = (error: Error) => options.onFailure?.(error);
  try {
    const child = spawn(plan.command, [...plan.args], {
      env,
      shell: false,
      stdio: 'ignore',
      detached: true,
      windowsHide: true,
    });
    child.on('error', fail);
    child.unref();
  } catch (error) {
    fail(error as Error);
  }
  return plan;
}

/** Whether a URL's hostname names this machine: 127.0.0.0/8, [::1] or localhost. */
function isLoopbackHost(hostname: string): boolean {
  // The URL parser has already turned every IPv4 spelling (0x7f.1, 2130706433) into dotted decimal.
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
