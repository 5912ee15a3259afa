import { CloseCircleFilled } from '@ant-design/icons';
import { useState } from 'react';
import { buttonClass } from './Button';

/** antd's Input.Search with a 搜索 button and a clear icon (plain.css `zk-search`). */
export function Search({ placeholder, label, onSearch }: { placeholder: string; label: string; onSearch: (value: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <div className="zk-search">
      <span className="zk-search__field">
        <input
          type="search"
          placeholder={placeholder}
          aria-label={label}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.nativeEvent.isComposing) onSearch(value);
          }}
        />
        <span className="zk-search__suffix">
          <button
            type="button"
            className={`zk-search__clear${value ? '' : ' zk-search__clear--hidden'}`}
            // Named for what it does: the icon's own name ("close-circle") is what a screen reader would say.
            aria-label="清空关键词"
            onClick={() => {
              setValue('');
              onSearch('');
            }}
          >
            <CloseCircleFilled aria-hidden />
          </button>
        </span>
      </span>
      <button type="button" className={buttonClass({ primary: true }, 'zk-search__button')} onClick={() => onSearch(value)}>
        <span>搜索</span>
      </button>
    </div>
  );
}
