/**
 * The class a CommonJS SDK exports as `exports.default` (the @alicloud SDKs). Node's own ESM
 * import, which the bundled server uses, gives the whole `module.exports` as `default`, so the
 * class is one `default` further; vitest's interop gives the class itself. Either way: the class.
 */
export function cjsDefault<T>(value: T): T {
  return typeof value === 'function' ? value : (value as unknown as { default: T }).default;
}
