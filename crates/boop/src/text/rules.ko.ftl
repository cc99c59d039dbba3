# boop rules summary for the rules page and the home page's card: rules-summary, then
# numbered sections (rules-section-N) and their points (rules-section-N-M), in order.

rules-summary = 6×6 침대에 새끼 고양이를 놓으면 이웃한 말을 밀어냅니다. 세 마리가 한 줄이면 고양이로 자라고, 고양이 세 마리가 한 줄이면 승리.

rules-section-1 = 차례
rules-section-1-1 = 내 풀에서 새끼 고양이나 고양이 하나를 빈칸에 놓습니다.
rules-section-1-2 = 놓은 말은 이웃한 말을 모두 한 칸 바깥쪽으로 밉니다(뒤 칸이 차 있으면 밀리지 않음). 밖으로 밀려난 말은 주인의 풀로 돌아갑니다.
rules-section-1-3 = 새끼 고양이는 고양이를 밀 수 없습니다. 밀려난 말은 다른 말을 밀지 않습니다.

rules-section-2 = 졸업
rules-section-2-1 = 내 말 셋이 한 줄(새끼 고양이 하나 이상)이면 침대에서 내립니다. 새끼 고양이는 고양이가 되어 풀로, 고양이는 풀로 돌아갑니다.
rules-section-2-2 = 내 말 여덟 개가 모두 침대 위에 있으면 하나를 반드시 거둬야 합니다.

rules-section-3 = 승리
rules-section-3-1 = 내 고양이 셋이 한 줄이 되거나, 여덟 개가 모두 고양이로 침대 위에 있으면 이깁니다.
rules-section-3-2 = 같은 국면이 세 번째로 나오면 무승부입니다.

rules-section-4 = Boooop (유령 고양이)
rules-section-4-1 = 각자 유령 하나를 더 가집니다. 침대 가장자리의 빈 입구 선분에 놓을 수 있습니다.
rules-section-4-2 = 이후 내 차례마다 한 선분씩 나아가며 양옆의 말을 밀어내고, 찬 칸은 뛰어넘습니다. 끝에 닿으면 내 풀로 돌아옵니다.
