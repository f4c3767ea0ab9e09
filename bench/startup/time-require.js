// Run in a fresh process as `node time-require.js <module>...`: requires the modules in order and prints how
// many milliseconds that took. A file rather than `node -e`, which loads node:crypto before the script runs
// and would hide what a program that requires protolink pays for it.
const start = process.hrtime.bigint();
for (const id of process.argv.slice(2)) require(id);
process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e6));
