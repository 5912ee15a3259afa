import { Button, Drawer, Space } from 'antd';
import type { ReactNode } from 'react';

/** A console editor in a large drawer, with 取消 and 保存 (which submits the form inside). */
export function EditorDrawer({
  title,
  open,
  onClose,
  saving,
  onSave,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  saving: boolean;
  onSave: () => void;
  children: ReactNode;
}) {
  return (
    <Drawer
      title={title}
      open={open}
      onClose={onClose}
      size="large"
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={onSave}>
            保存
          </Button>
        </Space>
      }
    >
      {children}
    </Drawer>
  );
}
