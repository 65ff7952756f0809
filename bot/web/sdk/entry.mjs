// The part of Discord's Embedded App SDK the board's Activity page uses (static/activity.js).
export { DiscordSDK } from "@discord/embedded-app-sdk";
