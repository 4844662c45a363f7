/**
 * Provider and model selectors, initialised from `GET /config` and remembered in
 * localStorage. Only values that differ from the server's are sent, as the `x-llm-*` headers.
 */
import type { LlmConfig } from '../../contract/providers.js';
import { byId, h } from './dom.js';

export type { LlmConfig };

const STORE_KEY = 'graph-chat.llm';
const PROVIDERS = ['local', 'hosted'];

interface Choice {
  agentProvider: string;
  agentModel: string;
  routerProvider: string;
  routerModel: string;
}

/** The selectors' current state; `headers()` gives what to send with a message. */
export interface Settings {
  headers(): Record<string, string>;
}

const modelFor = (c: LlmConfig, provider: string, role: 'agent' | 'router') =>
  String((c as unknown as Record<string, string>)[`${provider}_${role}_model`] ?? '');

function defaults(c: LlmConfig): Choice {
  return {
    agentProvider: c.llm_provider,
    agentModel: modelFor(c, c.llm_provider, 'agent'),
    routerProvider: c.router_provider,
    routerModel: modelFor(c, c.router_provider, 'router'),
  };
}

function load(c: LlmConfig): Choice {
  // A remembered `hosted` is dropped once the server has no key for it.
  const usable = (p: string | undefined) => PROVIDERS.includes(p ?? '') && !(p === 'hosted' && c.hosted_available === false);
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null') as Partial<Choice> | null;
    if (saved && usable(saved.agentProvider) && usable(saved.routerProvider)) {
      return { ...defaults(c), ...saved };
    }
  } catch {
    // Storage may be disabled; the server's values are used.
  }
  return defaults(c);
}

/** Wires the selectors to `config`. */
export function initSettings(config: LlmConfig): Settings {
  const agentProvider = byId<HTMLSelectElement>('agent-provider');
  const agentModel = byId<HTMLInputElement>('agent-model');
  const routerProvider = byId<HTMLSelectElement>('router-provider');
  const routerModel = byId<HTMLInputElement>('router-model');
  // A server without a hosted key refuses `hosted`: offered, but disabled and saying why.
  const offline = (p: string) => p === 'hosted' && config.hosted_available === false;
  const option = (p: string) => h('option', { value: p, disabled: offline(p) }, offline(p) ? `${p} (no API key on this server)` : p);
  for (const sel of [agentProvider, routerProvider]) sel.replaceChildren(...PROVIDERS.map(option));
  const names = new Set([config.local_agent_model, config.local_router_model, config.hosted_agent_model, config.hosted_router_model]);
  byId('model-names').replaceChildren(...[...names].map((n) => h('option', { value: n })));

  const show = (c: Choice) => {
    agentProvider.value = c.agentProvider;
    agentModel.value = c.agentModel;
    routerProvider.value = c.routerProvider;
    routerModel.value = c.routerModel;
  };
  const current = (): Choice => ({
    agentProvider: agentProvider.value,
    agentModel: agentModel.value.trim(),
    routerProvider: routerProvider.value,
    routerModel: routerModel.value.trim(),
  });
  const save = () => {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(current()));
    } catch {
      // Not remembered across reloads; still used for this page.
    }
  };
  show(load(config));
  // Switching provider switches to that provider's configured model.
  agentProvider.addEventListener('change', () => {
    agentModel.value = modelFor(config, agentProvider.value, 'agent');
    save();
  });
  routerProvider.addEventListener('change', () => {
    routerModel.value = modelFor(config, routerProvider.value, 'router');
    save();
  });
  agentModel.addEventListener('change', save);
  routerModel.addEventListener('change', save);
  byId('settings-reset').addEventListener('click', () => {
    show(defaults(config));
    save();
  });

  return {
    headers() {
      const now = current();
      const base = defaults(config);
      const out: Record<string, string> = {};
      if (now.agentProvider !== base.agentProvider) out['x-llm-provider'] = now.agentProvider;
      if (now.agentModel && now.agentModel !== base.agentModel) out['x-llm-agent-model'] = now.agentModel;
      if (now.routerProvider !== base.routerProvider) out['x-llm-router-provider'] = now.routerProvider;
      if (now.routerModel && now.routerModel !== base.routerModel) out['x-llm-router-model'] = now.routerModel;
      return out;
    },
  };
}
