# zertz rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = 공용 구슬을 놓고 고리를 걷어냅니다. 뛰어넘으면 잡습니다. 흰 4, 회색 5, 검정 6 또는 각 3개를 모으면 승리.

rules-section-1 = 차례
rules-section-1-1 = 뛰어넘을 수 있는 구슬이 있으면 반드시 잡아야 합니다. 이웃 구슬을 넘어 빈 고리로 뛰고, 같은 구슬로 계속 뛸 수 있으면 계속 뜁니다.
rules-section-1-2 = 아니면 공용 풀에서 아무 색 구슬을 빈 고리에 놓고, 가장자리의 자유로운 고리 하나를 걷어냅니다.
rules-section-1-3 = 풀이 비면 내가 잡은 구슬에서 놓습니다.

rules-section-2 = 고립
rules-section-2-1 = 나머지와 끊어지고 빈 고리가 없는 무리는 내 것이 되어 그 구슬을 가져옵니다.

rules-section-3 = 승리
rules-section-3-1 = 흰 4개, 회색 5개, 검정 6개 또는 각 색 3개를 모으면 이깁니다 (블리츠: 3, 4, 5 또는 각 2).
rules-section-3-2 = 둘 수 있는 수가 없는 사람이 집니다.
