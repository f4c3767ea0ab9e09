#!/usr/bin/env node
// The `protolink` executable: runs the CLI on the process's arguments and exits with its code.
import { runCli } from './run-cli';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
