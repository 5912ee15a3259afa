import type { ScoreImportResult } from '@zhikaoyun/shared';
import { Alert, Button, Modal, Space } from 'antd';
import { ImportErrorsDialog } from './ImportErrorsDialog';

/**
 * The import's preview: a dry run's counts and the way to import; a sheet with problems shows
 * them row by row in the console's import-errors dialog instead.
 */
export function ImportPreview({
  noun = '成绩',
  result,
  importing,
  onImport,
  onClose,
}: {
  /** What the sheet holds: 成绩, 面试成绩. */
  noun?: string;
  result: ScoreImportResult | null;
  importing: boolean;
  onImport: () => void;
  onClose: () => void;
}) {
  const ok = result !== null && result.errors.length === 0;
  return (
    <>
      <Modal
        open={ok}
        title="导入预览"
        width={720}
        onCancel={onClose}
        footer={
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" loading={importing} onClick={onImport}>
              确认导入
            </Button>
          </Space>
        }
      >
        {result && ok && (
          <Alert
            type="success"
            showIcon
            message={`检查通过：共 ${result.rows} 人，其中缺考 ${result.absent} 人、违纪 ${result.void} 人`}
            description={`确认后将替换该考试已导入的全部${noun}，并重新计算排名（未确认前不做任何改动）。`}
          />
        )}
      </Modal>
      <ImportErrorsDialog title={`${noun}表有错误，未导入`} errors={result && !ok ? result.errors : null} onClose={onClose} />
    </>
  );
}
