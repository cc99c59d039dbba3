# punct rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = 점 세 개짜리 말을 육각 격자에 놓고 옮기며 다른 말 위로 올라가, 판의 마주 보는 두 변을 이으세요.

rules-section-1 = 차례
rules-section-1-1 = 내 말 하나를 빈 점들에 평평하게 놓거나, 자유로운 내 말 하나를 옮깁니다. PÜNCT 점(표시된 점)은 선을 따라 얼마든지 뛰고, 말은 돌 수 있습니다.
rules-section-1-2 = 표준: 새 말은 가운데 육각형에 닿을 수 없습니다 (기본: 백의 첫 말만).

rules-section-2 = 오르기
rules-section-2-1 = 옮긴 말은 수평을 이루고 PÜNCT 점이 내 점 위에 있으면 다른 말 위에 올라갈 수 있습니다. 덮인 말은 움직일 수 없습니다.

rules-section-3 = 승리
rules-section-3-1 = 보이는 내 점들로 마주 보는 두 변을 이으면 이깁니다. 한 수로 둘 다 이어지면 둔 사람이 이깁니다.
rules-section-3-2 = 말이 다 떨어지도록 연결이 없으면: 기본은 무승부, 표준은 가운데 점을 더 많이 보이는 사람이 이깁니다.
