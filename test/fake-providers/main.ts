/**
 * `npm run fake-providers`: starts the fake providers on 127.0.0.1 for manual use (port from
 * env `PORT`, default 8787), prints the base URLs and keys to paste into the options page, and
 * logs one line per request (keys redacted, S4). Ctrl-C stops it. Answers are rich (rich.ts):
 * Markdown, thinking when asked, tool calls when tools are defined; `FAKE_SLOW=1` streams every
 * answer slowly (otherwise a message containing "slow" is); `FAKE_PLAIN=1` gives the tests' short answer.
 */
import { INTERACTIVE_MODELS } from './model-lists';
import { startFakeProviders } from './server';

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a TCP port, got ${process.env.PORT}`);
  process.exit(2);
}

const server = await startFakeProviders({
  port,
  models: INTERACTIVE_MODELS,
  rich: process.env.FAKE_PLAIN !== '1',
  slow: process.env.FAKE_SLOW === '1',
});
const { url, keys } = server;
console.log(`Fake providers listening on ${url}

  OpenAI     base URL  ${url}/v1      key  ${keys.openai}
  Anthropic  base URL  ${url}         key  ${keys.anthropic}
  Gemini     base URL  ${url}         key  ${keys.google}
  OpenAI-compatible endpoint  ${url}/compat/v1   key  ${keys.compat}
    (or /openrouter/v1, /ollama/v1, /mistral/v1, /deepseek/v1, /groq/v1 for that backend's rules)

Models: ${INTERACTIVE_MODELS.openai[0]}, ${INTERACTIVE_MODELS.anthropic[1]}, ${INTERACTIVE_MODELS.google[0]} and more (each provider's list).
Answers: Markdown with a table, code and math; thinking when asked; tool calls when the request has tools.
Put "slow" in a message for a slow answer you can stop (or start with FAKE_SLOW=1).
Every request body is checked by test/contract; a broken one gets a 400 naming the rule.
`);

const secrets = Object.values(keys);
const redact = (s: string) => secrets.reduce((acc, k) => acc.split(k).join('[key]'), s);
let seen = 0;
setInterval(() => {
  for (; seen < server.requests.length; seen++) {
    const r = server.requests[seen]!;
    const notes = [...r.keyViolations, ...r.violations.map((v) => `${v.rule} ${v.path}`)];
    console.log(
      redact(
        `${new Date(r.at).toISOString()} ${r.method} ${r.path} → ${r.api}${notes.length ? `  [${notes.join('; ')}]` : ''}`,
      ),
    );
  }
}, 250).unref();

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
