// Process entry of `gleaner` (packages/cli/bin/gleaner.js runs it): wires the real streams and
// environment into run() and turns its result into the exit code.
import { run } from './run.js';
const controller = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
    // the first Ctrl-C lets the CLI write what it has; a second one ends it at once
    if (interrupted)
        process.exit(130);
    interrupted = true;
    controller.abort(new Error('interrupted'));
});
// `gleaner … | head` closes the pipe early: that is not an error
process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE')
        process.exit(0);
    throw e;
});
try {
    process.exitCode = await run(process.argv.slice(2), {
        env: process.env,
        stdout: process.stdout,
        stderr: process.stderr,
        signal: controller.signal,
    });
}
catch (e) {
    process.stderr.write(`gleaner: unexpected error: ${e?.message ?? String(e)}\n`);
    process.exitCode = 1;
}
