/** Who an order or a waiver request belongs to, as the console's tables show it first. */
export const APPLICANT_COLUMNS = [
  { title: '姓名', dataIndex: 'name' },
  { title: '岗位', dataIndex: 'positionName' },
];
