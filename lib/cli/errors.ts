/** Errors the CLI reports as one `baton: ` line with exit status 2 (transcript-v1.md, "The `baton convert` contract"). */
export class CliError extends Error {
  override readonly name = 'CliError';
}
