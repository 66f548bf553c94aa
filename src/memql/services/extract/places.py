"""Place names the Chinese grammar knows without a capital letter to tell them: cities, provinces and
countries as people say them in Chinese (深圳, 蒙特利尔, 加拿大).

Chinese writes a city and an employer or a school alike (在深圳上班, 在腾讯上班; 在南京读研, 在南大读研),
so the words after 在 or 去 are a place only when this list knows them; a 市 or 省 after them is allowed.
The list is deliberately the well-known places (Chinese cities of a million people or more, the
provinces, and the foreign cities and countries Chinese speakers most often name): a place it does not
know is read as before (an employer, a school), never guessed.
"""

from __future__ import annotations

import re

_CHINA_CITIES = """
北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 成都 武汉 西安 长沙 郑州 济南 青岛 大连 沈阳 长春 哈尔滨
石家庄 太原 呼和浩特 合肥 福州 厦门 南昌 南宁 海口 三亚 贵阳 昆明 拉萨 兰州 西宁 银川 乌鲁木齐 宁波 温州
无锡 常州 东莞 佛山 珠海 中山 惠州 汕头 泉州 烟台 威海 潍坊 徐州 扬州 南通 绍兴 嘉兴 金华 台州 洛阳 开封
桂林 丽江 大理 秦皇岛 保定 唐山 廊坊 邯郸 芜湖 九江 赣州 宜昌 襄阳 岳阳 株洲 湘潭 绵阳 宜宾 遵义 镇江
淄博 临沂 济宁 日照 盐城 连云港 湖州 舟山 江门 湛江 肇庆 清远 揭阳 柳州 北海 吉林 大庆 包头 鄂尔多斯
香港 澳门 台北 高雄 台中 新竹
"""
_PROVINCES = """
广东 浙江 江苏 山东 河南 河北 湖南 湖北 四川 云南 贵州 福建 江西 安徽 山西 陕西 甘肃 辽宁 黑龙江 广西 海南
内蒙古 新疆 西藏 宁夏 青海 台湾
"""
_ABROAD = """
东京 大阪 京都 横滨 名古屋 福冈 札幌 首尔 釜山 新加坡 曼谷 清迈 吉隆坡 雅加达 马尼拉 河内 胡志明市 悉尼
墨尔本 布里斯班 珀斯 奥克兰 惠灵顿 伦敦 曼彻斯特 爱丁堡 巴黎 里昂 柏林 慕尼黑 法兰克福 汉堡 阿姆斯特丹 罗马
米兰 佛罗伦萨 威尼斯 马德里 巴塞罗那 里斯本 波尔图 维也纳 苏黎世 日内瓦 布鲁塞尔 斯德哥尔摩 哥本哈根
赫尔辛基 奥斯陆 都柏林 布拉格 华沙 布达佩斯 雅典 伊斯坦布尔 莫斯科 迪拜 纽约 洛杉矶 旧金山 西雅图 波士顿
芝加哥 华盛顿 休斯顿 奥斯汀 丹佛 迈阿密 费城 圣地亚哥 拉斯维加斯 硅谷 湾区 多伦多 温哥华 蒙特利尔 渥太华
卡尔加里 墨西哥城 圣保罗 里约热内卢 布宜诺斯艾利斯 开普敦 开罗
美国 英国 法国 德国 日本 韩国 加拿大 澳大利亚 澳洲 新西兰 意大利 西班牙 葡萄牙 荷兰 瑞士 瑞典 挪威 丹麦 芬兰
俄罗斯 泰国 越南 马来西亚 印度尼西亚 菲律宾 印度 巴西 阿根廷 墨西哥 爱尔兰 比利时 奥地利 希腊 土耳其 埃及
南非 国外 海外
"""
PLACES_ZH = frozenset((_CHINA_CITIES + _PROVINCES + _ABROAD).split())


def is_place_zh(words: str) -> bool:
    """Do the words name a place this list knows (深圳, 深圳市, 广东省)?"""
    words = words.strip()
    return words in PLACES_ZH or (len(words) > 2 and words[-1] in "市省" and words[:-1] in PLACES_ZH)


_EMPLOYERS_ZH = """
腾讯 阿里 阿里巴巴 蚂蚁 京东 字节 字节跳动 百度 华为 小米 美团 拼多多 网易 滴滴 快手 携程
联想 中兴 比亚迪 大疆 蔚来 小鹏 理想 宁德时代 顺丰 新浪 微博 搜狐 米哈游 商汤 科大讯飞
海尔 格力 美的 万科 招行 工行 建行 农行 中行 平安 微软 谷歌 苹果 亚马逊
英特尔 特斯拉 三星 索尼 IBM 甲骨文 思科 德勤 普华永道 安永 毕马威 麦肯锡
货拉拉 饿了么 闪送 达达 曹操出行 花小猪 满帮 盒马 叮咚买菜 高德
"""
EMPLOYERS_ZH = frozenset(_EMPLOYERS_ZH.split())


def is_employer_zh(words: str) -> bool:
    """Do the words name an employer people name by itself (在腾讯, 在字节)? Like the places, the list is the
    well-known ones; an unknown name after a bare 在 is not guessed to be one."""
    return words.strip() in EMPLOYERS_ZH


_EMPLOYER_RE = "|".join(sorted(map(re.escape, EMPLOYERS_ZH), key=len, reverse=True))
# 在顺丰开大车, 在美团送外卖: work at a known employer said by what one does there; 开滴滴, 跑美团: by the
# service one drives or delivers for
_WORKS_FOR_ZH = re.compile(
    r"(?:现在|目前|如今|已经|一直|还)*(?:在(?P<v>"
    + _EMPLOYER_RE
    + r")(?P<job>(?:开|跑|送|写|搞)[\u4e00-\u9fff]{1,4}?)|"
    r"在?(?P<job2>(?:开|跑|送)(?P<w>" + _EMPLOYER_RE + r")))(?:了|呢|啦)?[。！!]*$"
)


def works_for_zh(text: str, pos: int, end: int) -> re.Match[str] | None:
    """在顺丰开大车, 跑滴滴: a match whose group "v" or "w" is the known employer one works for, and "job" or
    "job2" what one does there."""
    return _WORKS_FOR_ZH.match(text, pos, end)


# 姑妈跟着表哥去了苏州: gone with someone to a place is living there (a trip alone to one is not)
_FOLLOWED_TO_ZH = re.compile(
    r"(?:跟着?|随着?)[\u4e00-\u9fff]{1,4}?(?:一起)?(?:去了|到了|搬到了?|搬去了?|过去了)(?P<v>[\u4e00-\u9fff]{2,6}?)"
    r"(?:市|省)?(?:了|啦|住了?|生活了?|定居了?)?[。！!]*$"
)


def followed_to_zh(text: str, pos: int, end: int) -> re.Match[str] | None:
    """A match whose group "v" is a known place one went to with someone (跟着表哥去了苏州)."""
    m = _FOLLOWED_TO_ZH.match(text, pos, end)
    return m if m is not None and is_place_zh(m["v"]) else None
