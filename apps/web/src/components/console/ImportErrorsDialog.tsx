import { Alert, Button, Modal, Table } from 'antd';

/** One problem of an imported sheet: its spreadsheet row (0: the whole file) and what is wrong. */
export interface SheetError {
  row: number;
  msg: string;
}

/**
 * The row-by-row problems of an Excel import that wrote nothing: every console import shows them
 * the same way, in the office's words, so staff fix the sheet and import it again.
 */
export function ImportErrorsDialog({
  title,
  errors,
  onClose,
}: {
  title: string;
  errors: readonly SheetError[] | null;
  onClose: () => void;
}) {
  return (
    <Modal title={title} open={errors !== null} onCancel={onClose} footer={<Button onClick={onClose}>知道了</Button>} width={640}>
      <Alert type="warning" showIcon title={`共 ${errors?.length ?? 0} 处问题，请修改后重新导入。`} />
      <Table
        size="small"
        rowKey={(e) => `${e.row}-${e.msg}`}
        dataSource={errors ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: '位置', dataIndex: 'row', width: 90, render: (row: number) => (row === 0 ? '整个文件' : `第 ${row} 行`) },
          { title: '问题', dataIndex: 'msg' },
        ]}
      />
    </Modal>
  );
}
