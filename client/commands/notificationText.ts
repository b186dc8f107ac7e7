// Notifications turn `[label](https:…|command:…|file:…)` in their text into links, and a command
// link runs a command when clicked. A server's message can echo what a request carried, so text
// from elsewhere goes into a notification with that syntax broken: `](` becomes `] (`. No VS Code here.

export function notificationText(text: string): string {
  return text.replace(/\]\s*\(/g, '] (');
}
