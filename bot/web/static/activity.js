// The board inside Discord, as an Activity: Discord's Embedded App SDK (./sdk/discord-sdk.js, built by
// bot/web/sdk) speaks to the Discord client that frames the page. The page asks it to authorize the
// application (scope identify), the server exchanges the code for the user's identity and answers the
// board token of their seat in the channel's game (a spectator's if they play none), and the SDK
// authenticates with the access token. Every URL is relative, so the page works under Discord's proxy
// prefix (/.proxy/) and directly.

import { DiscordSDK } from "./sdk/discord-sdk.js";

async function json(response) {
  try {
    return await response.json();
  } catch {
    return { ok: false, error: { message: `The board's server answered ${response.status}: try again later.` } };
  }
}

/**
 * Signs the Discord user in; resolves with the server's session ({token, role, user, game}), or
 * rejects with an Error whose message is for the user.
 */
export async function signIn() {
  const client = await json(await fetch("activity/client", { cache: "no-store" }));
  if (!client.client_id) throw new Error("The board is not set up as an Activity on this server.");
  const sdk = new DiscordSDK(client.client_id, { disableConsoleLogOverride: true });
  await sdk.ready();
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: client.client_id,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }));
  } catch {
    throw new Error("Discord did not let the board know who you are: allow it, then open the board again.");
  }
  const response = await fetch("activity/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
    cache: "no-store",
  });
  const session = await json(response);
  if (!session.ok) throw new Error(session.error.message);
  await sdk.commands.authenticate({ access_token: session.access_token });
  return session;
}
