// Strings a terminal executes: OSC (titles, OSC 52 clipboard writes, hyperlinks), DCS, SOS, PM and APC,
// each up to its terminator (BEL or ST) or, unterminated, to the end of the text; 7-bit and 8-bit forms.
const STRING_SEQUENCE =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)/g;
// Control sequences (colors, cursor moves, screen clears, mode changes), terminated or not.
const CSI_SEQUENCE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?/g;
// Every other escape sequence (ESC c resets the terminal, ESC ( 0 switches character sets).
const ESC_SEQUENCE = /\u001b[ -/]*[0-~]?/g;
// What is left of C0 (but newline and tab), DEL and C1.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Returns `text` without terminal control and escape sequences, so text from an MCP server, a served
 * module or an error cannot drive the terminal it is printed to: CSI (colors, cursor moves, clears), OSC
 * (window titles, OSC 52 clipboard writes, hyperlinks), DCS/SOS/PM/APC strings, other ESC sequences, and
 * every C0 and C1 control character but newline and tab (a carriage return could overwrite a line).
 */
export function stripTerminalEscapes(text: string): string {
  // Most text has no control character at all: skip the four passes.
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text
    .replace(STRING_SEQUENCE, '')
    .replace(CSI_SEQUENCE, '')
    .replace(ESC_SEQUENCE, '')
    .replace(CONTROL, '');
}
