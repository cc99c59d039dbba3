# gipf rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = 육각 판의 가장자리에서 말을 밀어 넣습니다. 네 개가 한 줄이면 잡습니다. 상대의 말(또는 GIPF 말)이 떨어지면 승리.

rules-section-1 = 차례
rules-section-1-1 = 비축한 말 하나를 가장자리 점에 놓고 선을 따라 판 안으로 한 칸 밉니다. 앞의 말들도 함께 밀리며, 선이 꽉 차 있으면 밀 수 없습니다.
rules-section-1-2 = 백이 먼저 둡니다. 표준 규칙에서는 각자 GIPF 말(두 겹 말) 세 개를 놓고 시작합니다.

rules-section-2 = 줄
rules-section-2-1 = 한 선에 내 말이 넷 이상 이어지면 그 줄과 이어진 말을 모두 걷어냅니다. 내 말은 비축으로 돌아오고 상대 말은 잡힙니다.
rules-section-2-2 = 내 GIPF 말은 걷어내지 않고 남겨 둘 수 있습니다.
rules-section-2-3 = 상대에게 생긴 줄은 상대가 자기 차례 시작에 걷어냅니다.

rules-section-3 = 승리
rules-section-3-1 = 비축이 비어 밀 수 없는 사람이 집니다.
rules-section-3-2 = 표준·토너먼트: 판 위에 GIPF 말이 하나도 없는 사람이 집니다.
