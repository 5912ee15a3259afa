import type { PaymentProviderName } from '@zhikaoyun/shared';
import type { FastifyInstance } from 'fastify';
import { createAlipayProvider, type AlipayConfig } from './providers/alipay';
import { createSandbox, type SandboxKeys } from './providers/sandbox';
import type { SandboxRepository } from './sandbox-repository';
import type { PaymentProvider } from './providers/types';
import { createWechatProvider, type WechatConfig } from './providers/wechat';

/** The payments part of the configuration (config.ts reads it from the environment). */
export interface PaymentsConfig {
  provider: 'sandbox' | 'alipay' | 'wechat';
  /** Base of the notify and return URLs; null: http://127.0.0.1:PORT (the sandbox needs no more). */
  publicUrl: string | null;
  /** Milliseconds between sweeps; 0: no sweeper (tests sweep by hand). */
  sweepMs: number;
  alipay: AlipayConfig | null;
  wechat: WechatConfig | null;
}

export interface PaymentsOptions {
  config: PaymentsConfig;
  /** The sandbox's keys (server.ts reads or makes them beside the data; buildApp makes some when absent). */
  sandboxKeys: SandboxKeys | undefined;
}

/**
 * The providers of this app: the configured one takes new orders; the sandbox exists unless a
 * real provider is configured in production, so orders made with it earlier still resolve.
 */
export function composeProviders(app: FastifyInstance, options: PaymentsOptions, production: boolean, sandboxRepo: SandboxRepository) {
  const { config } = options;
  const providers = new Map<PaymentProviderName, PaymentProvider>();
  const sandbox =
    options.sandboxKeys && (config.provider === 'sandbox' || !production)
      ? createSandbox({
          repo: sandboxRepo,
          keys: options.sandboxKeys,
          // Delivered through the app's own route, exactly as a provider's request would arrive.
          deliver: async (path, request) =>
            (await app.inject({ method: 'POST', url: path, headers: { ...request.headers }, payload: request.rawBody })).statusCode,
        })
      : null;
  if (sandbox) providers.set('sandbox', sandbox.provider);
  if (config.alipay) providers.set('alipay', createAlipayProvider(config.alipay));
  if (config.wechat) providers.set('wechat', createWechatProvider(config.wechat));
  const provider = providers.get(config.provider);
  if (!provider) throw new Error(`payment provider ${config.provider} is not configured`);
  return { providers, provider, sandbox };
}
