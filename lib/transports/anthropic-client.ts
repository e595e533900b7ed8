/**
 * Baton's Anthropic client: the SDK's `BaseAnthropic` (options, headers, fetch, errors, streaming,
 * pagination) with only the resources Baton calls — `messages` (`create`, `countTokens`), `models`
 * (`list`) and `beta.messages` (`create`, for a request with an `anthropic-beta` header).
 *
 * Why not the SDK's `Anthropic` class: its constructor makes every resource (files, skills, user
 * profiles, organization, the whole beta tree), so a bundle of it holds all their code. In the
 * Chromium build the Anthropic SDK is a script the worker imports at install, and Chromium hands
 * every installed script to the worker at every start, about 20 ms per MB of script on each wake
 * (docs/architecture.md#the-service-workers-start-up); this class bundles to less than half the
 * full client. The extension's loader (`sdk-loaders.ts`, replaced by `scripts/lazy-modules.ts`) and
 * Node (CLI, tests, bench) both run this very class, so what the tests exercise is what ships.
 *
 * Imports only public subpaths of the SDK's `exports`; types stay the SDK's own.
 */
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages as BetaMessages } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';
import { Models } from '@anthropic-ai/sdk/resources/models';

/**
 * An Anthropic client with the SDK's `Anthropic` constructor options and behaviour for the
 * resources it holds: `messages`, `models` and `beta.messages`. Nothing else of the SDK's client
 * is reachable from it (a call to another resource is a type error).
 */
export class AnthropicClient extends BaseAnthropic {
  /** `POST /v1/messages` (streamed or not) and `POST /v1/messages/count_tokens`. */
  messages: Messages = new Messages(this);
  /** `GET /v1/models` (paginated). */
  models: Models = new Models(this);
  /** Beta Messages only: `POST /v1/messages` with the request's `anthropic-beta` header. */
  beta: { messages: BetaMessages } = { messages: new BetaMessages(this) };
}
