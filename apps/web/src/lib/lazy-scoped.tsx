import { lazy, type ComponentType } from 'react';

/**
 * A part of a plain page (one built without antd's runtime) that is built on antd: it loads when
 * first shown, together with what it needs around it (lib/providers AntdScope: antd's theme and
 * App, the query client), so that it looks and behaves as on any page built on antd.
 */
export function lazyScoped<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(() =>
    Promise.all([load(), import('./providers')]).then(([Part, { AntdScope }]) => ({
      default: function ScopedPart(props: P) {
        return (
          <AntdScope>
            <Part {...props} />
          </AntdScope>
        );
      },
    })),
  );
}
