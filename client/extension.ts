// Entry point of the extension (dist/extension.js): wires the parts together.
export function activate(): void {}

export function deactivate(): void {}
