import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Space, Tooltip } from 'antd';
import { useEffect, type ReactNode } from 'react';

interface Props {
  value?: string;
  onChange?: (html: string) => void;
  /** The field's name for screen readers. */
  label: string;
  id?: string;
}

/**
 * The console's rich-text field (tiptap): headings, emphasis, lists, quotes and links, as HTML.
 * What it produces is only a draft of what candidates see: the server sanitizes it on save.
 */
export function RichTextEditor({ value = '', onChange, label, id }: Props) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: { levels: [2, 3, 4] }, link: { openOnClick: false, protocols: ['http', 'https', 'mailto'] } }),
    ],
    content: value,
    editorProps: {
      attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true', class: 'rich-text__content', ...(id ? { id } : {}) },
    },
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
  });
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      link: e.isActive('link'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });

  // A different record loaded into the form replaces the text; typing does not loop back here.
  useEffect(() => {
    if (editor && value !== editor.getHTML() && !(value === '' && editor.isEmpty)) {
      // Loading a record is not an edit: undo must not bring back the empty field.
      editor.chain().setMeta('addToHistory', false).setContent(value, { emitUpdate: false }).run();
    }
  }, [editor, value]);

  const tool = (title: string, icon: ReactNode, active: boolean, run: () => void, disabled = false) => (
    <Tooltip title={title}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        icon={icon}
        aria-label={title}
        aria-pressed={active}
        disabled={disabled}
        onClick={run}
      />
    </Tooltip>
  );
  const link = () => {
    if (state.link) {
      editor.chain().focus().unsetLink().run();
      return;
    }
    const href = window.prompt('链接地址（http:// 或 https:// 开头）', 'https://');
    if (href && /^(https?:\/\/|mailto:)/.test(href)) editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
  };

  return (
    <div className="rich-text">
      <Space size={2} wrap className="rich-text__toolbar" role="toolbar" aria-label={`${label}格式`}>
        <Button
          size="small"
          type={state.h3 ? 'primary' : 'text'}
          aria-pressed={state.h3}
          onClick={() => editor.chain().focus().toggleHeading({ level: 3 }).run()}
        >
          标题
        </Button>
        {tool('加粗', <BoldOutlined aria-hidden />, state.bold, () => editor.chain().focus().toggleBold().run())}
        {tool('斜体', <ItalicOutlined aria-hidden />, state.italic, () => editor.chain().focus().toggleItalic().run())}
        {tool('下划线', <UnderlineOutlined aria-hidden />, state.underline, () => editor.chain().focus().toggleUnderline().run())}
        {tool('无序列表', <UnorderedListOutlined aria-hidden />, state.bullet, () => editor.chain().focus().toggleBulletList().run())}
        {tool('有序列表', <OrderedListOutlined aria-hidden />, state.ordered, () => editor.chain().focus().toggleOrderedList().run())}
        {tool(state.link ? '取消链接' : '插入链接', <LinkOutlined aria-hidden />, state.link, link)}
        {tool('撤销', <UndoOutlined aria-hidden />, false, () => editor.chain().focus().undo().run(), !state.undo)}
        {tool('重做', <RedoOutlined aria-hidden />, false, () => editor.chain().focus().redo().run(), !state.redo)}
      </Space>
      <EditorContent editor={editor} />
    </div>
  );
}
