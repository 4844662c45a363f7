/**
 * The chat page's HTML shell and its security headers. The markup is static; the script
 * (`/ui/app.js`, built from `src/ui/client/`) fills in sessions, messages and settings.
 */

/**
 * Content-Security-Policy of the UI pages: scripts and styles only from this origin (no inline
 * script or style attributes), API calls only to this origin (the `/api` proxy), images only
 * from this origin or data URLs (a Markdown image pointing elsewhere cannot phone home).
 */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers sent with every UI response. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The page; `version` busts caches of the script and stylesheet between builds. */
export function chatPage(version: string): string {
  const v = encodeURIComponent(version);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Graph chat</title>
<script src="/ui/theme.js?v=${v}"></script>
<link rel="stylesheet" href="/ui/app.css?v=${v}">
<script type="module" src="/ui/app.js?v=${v}"></script>
</head>
<body>
<a class="skip" href="#composer-input">Skip to the message box</a>
<div class="layout">
  <header class="topbar">
    <button type="button" id="sidebar-toggle" class="icon-btn" aria-controls="sidebar" aria-expanded="false">Chats</button>
    <h1>Graph chat</h1>
    <span id="identity" class="muted" aria-live="polite"></span>
    <label for="theme-select" class="theme-label">Theme</label>
    <select id="theme-select">
      <option value="system">System</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select>
  </header>
  <nav id="sidebar" class="sidebar" aria-label="Chat sessions">
    <button type="button" id="new-chat" class="primary">New chat</button>
    <h2 class="visually-hidden">Your chats</h2>
    <div class="session-search" role="search">
      <label for="session-search" class="visually-hidden">Search chats</label>
      <input type="search" id="session-search" placeholder="Search chats" autocomplete="off" spellcheck="false" aria-controls="session-list">
    </div>
    <ul id="session-list" class="session-list"></ul>
    <p id="session-empty" class="muted" hidden>No chats yet.</p>
    <p id="session-nomatch" class="muted" role="status" hidden></p>
    <details id="settings" class="settings">
      <summary>Model settings</summary>
      <form id="settings-form">
        <label for="agent-provider">Agent provider</label>
        <select id="agent-provider" name="agent-provider"></select>
        <label for="agent-model">Agent model</label>
        <input id="agent-model" name="agent-model" list="model-names" autocomplete="off" spellcheck="false">
        <label for="router-provider">Router provider</label>
        <select id="router-provider" name="router-provider"></select>
        <label for="router-model">Router model</label>
        <input id="router-model" name="router-model" list="model-names" autocomplete="off" spellcheck="false">
        <datalist id="model-names"></datalist>
        <button type="button" id="settings-reset">Use server defaults</button>
      </form>
    </details>
  </nav>
  <main class="chat" id="chat" aria-labelledby="chat-title">
    <div class="chat-head">
      <h2 id="chat-title" class="chat-title">New chat</h2>
      <div id="export" class="export" role="group" aria-label="Export this chat" hidden>
        <button type="button" id="export-md">Export Markdown</button>
        <button type="button" id="export-json">Export JSON</button>
      </div>
    </div>
    <div id="banner" class="banner" role="alert" hidden></div>
    <section id="setup" class="setup" aria-labelledby="setup-title" hidden></section>
    <ol id="messages" class="messages" aria-label="Messages"></ol>
    <p id="empty-hint" class="muted empty-hint">Ask about the graph: a fact, an entity, or something to explain.</p>
    <form id="composer" class="composer">
      <label for="composer-input" class="visually-hidden">Message</label>
      <textarea id="composer-input" name="message" rows="2" required
        placeholder="Ask a question (Enter to send, Shift+Enter for a new line)"
        aria-describedby="composer-help"></textarea>
      <span id="composer-help" class="visually-hidden">Enter sends the message; Shift and Enter adds a new line.</span>
      <button type="submit" id="send" class="primary">Send</button>
    </form>
  </main>
</div>
<div id="live" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
<dialog id="dialog" aria-labelledby="dialog-title">
  <form method="dialog" id="dialog-form">
    <h2 id="dialog-title"></h2>
    <p id="dialog-text"></p>
    <label id="dialog-label" for="dialog-input">Name</label>
    <input id="dialog-input" maxlength="100" autocomplete="off">
    <p id="dialog-error" class="error" role="alert"></p>
    <div class="dialog-buttons">
      <button type="button" id="dialog-cancel">Cancel</button>
      <button type="submit" value="ok" id="dialog-ok" class="primary">OK</button>
    </div>
  </form>
</dialog>
<noscript><p class="banner">This chat needs JavaScript.</p></noscript>
</body>
</html>`;
}
